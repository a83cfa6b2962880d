/**
 * Moderation's shared vocabulary (spec 9 "Business constants and limits"): the report reasons with their default
 * severity, the severities, and the violation levels the penalty tiers count.
 */
export const REPORT_SEVERITIES = ['low', 'medium', 'high'] as const;
export type ReportSeverity = (typeof REPORT_SEVERITIES)[number];

/** spec 9: each reason key with the severity the Report dialog starts from. */
export const REPORT_REASONS = {
  inappropriate: 'high',
  harassment: 'high',
  abuse: 'high',
  spam: 'low',
  self_promotion: 'low',
  impersonation: 'high',
  scamming: 'medium',
  underage: 'high',
  other: 'medium',
} as const satisfies Record<string, ReportSeverity>;
export type ReportReason = keyof typeof REPORT_REASONS;

/** spec 9: the levels a violation is judged at (the penalty system page explains each). */
export const VIOLATION_LEVELS = ['minor', 'moderate', 'severe'] as const;
export type ViolationLevel = (typeof VIOLATION_LEVELS)[number];

/** spec 9 "Escalation counted over a window such as 6 months": older violations no longer raise the tier. */
export const PENALTY_ESCALATION_WINDOW_DAYS = 182;
