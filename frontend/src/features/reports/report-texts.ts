import type { ReportReason, ReportSeverity } from '@serendip/proto';

/** spec 2 "Report User dialog" and spec 8 "Report": what the dialog says, word for word. */
export const REPORT_TEXTS = {
  title: 'Report User',
  reasonPlaceholder: 'Select type of report',
  reasonRequired: 'Please provide a reason for the report.',
  missingUserData: 'Missing user data for report.',
  submitted: 'Report submitted successfully',
  submitFailed: 'Failed to submit report',
  autoCaptured: 'Screenshot captured automatically',
  captured: 'Screenshot captured successfully',
  captureFailed: 'Failed to capture screenshot',
  uploadFailed: 'The screenshot could not be uploaded. Take it again, or send the report without it.',
  saveFailed: 'Failed to save data locally',
  confirmCloseTitle: 'Are you sure you want to close?',
  confirmCloseText: 'Your report data will be lost. Do you want to continue?',
  confirmCloseYes: 'Yes, close',
  /** A call from Recent calls: there is no video left to capture. */
  noVideo: 'This call has ended, so no screenshot can be taken now. You can send the report without one.',
} as const;

/** spec 9's reason keys as the reason list names them (the list's labels are ours: the spec does not show them). */
export const REASON_LABELS: Record<ReportReason, string> = {
  inappropriate: 'Inappropriate content',
  harassment: 'Harassment',
  abuse: 'Abuse',
  spam: 'Spam',
  self_promotion: 'Self-promotion',
  impersonation: 'Impersonation',
  scamming: 'Scamming',
  underage: 'Underage user',
  other: 'Other',
};

export const SEVERITY_LABELS: Record<ReportSeverity, string> = { low: 'Low', medium: 'Medium', high: 'High' };
