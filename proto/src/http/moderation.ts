import { z } from 'zod/mini';

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

/** Report evidence and report text limits (the server enforces them). */
export const REPORT_DETAILS_MAX_LENGTH = 1_000;
/** A screenshot upload: the client's JPEG of the partner's video (spec 9: JPEG quality 0.85). */
export const REPORT_SCREENSHOT_MAX_BYTES = 4 * 1024 * 1024;
export const REPORT_SCREENSHOT_TYPES = ['image/jpeg', 'image/png', 'image/webp'] as const;
/** A call can be reported until this long after it ended (Recent calls lists the same window). */
export const REPORT_WINDOW_HOURS = 24;
export const APPEAL_EXPLANATION_MAX_LENGTH = 2_000;
export const MODERATION_NOTE_MAX_LENGTH = 2_000;

/**
 * The answer to a screenshot upload (`POST /api/report/screenshots`, raw image bytes with their Content-Type). The id
 * names it in the report; only its uploader may attach it, once, within an hour.
 */
export interface ReportScreenshotUploaded {
  screenshotId: string;
  /** The re-encoded picture, viewable by its uploader until attached (for the dialog's preview). */
  url: string;
  sha256: string;
}

/**
 * spec 7 POST /report/submit-report. The reporter is the signed-in user (never a field); the report names the call, and
 * the server finds who was in it. `reportedUser` (the partner id of that call, matchFound.partnerId, spec 7's field) is
 * accepted and not relied on: the call's record says who the other party was. `type` is always 'videosession'.
 */
export interface SubmitReportRequest {
  matchId: string;
  reportedUser?: string;
  reason: ReportReason;
  severity: ReportSeverity;
  /** A screenshotId from the upload; optional (the server's own snapshot is taken for relayed calls). */
  screenshot?: string;
  details?: string;
  type?: 'videosession';
}

export interface ReportSubmitted {
  reportId: string;
  message: string;
}

export type AppealStatusValue = 'none' | 'pending' | 'approved' | 'rejected';

/** spec 3 "Ban record" as GET /api/user/ban-info/{userId} answers it (only to that user, or an admin). */
export interface BanInfo {
  isBanned: boolean;
  /** Absent when the user has no ban on now. */
  ban?: BanRecordView;
}

export interface BanRecordView {
  caseId: string;
  bannedUser: { firstName: string | null };
  reason: string;
  level: ViolationLevel;
  /** First name and last name's initial is what the banned screen shows; null when the banning account is gone. */
  bannedByWho: { firstName: string; lastName: string } | null;
  banDate: string;
  /** Absent: permanent. */
  expiryDate?: string;
  appealStatus: AppealStatusValue;
  appealExplanation?: string;
}

/** One ban in /security-center/view-ban-history (GET /api/user/ban-history), newest first. */
export interface BanHistoryEntry extends BanRecordView {
  /** How it ended; null while it is on. */
  ended: { at: string; how: 'expired' | 'unbanned' | 'appeal-approved' } | null;
  appealedAt?: string;
  /** The review of the appeal: its outcome's date and the reviewer's note. */
  appealDecision?: { at: string; note: string };
}

/** A warning on the account (GET /api/user/warnings), newest first: on the record, no restriction. */
export interface WarningEntry {
  caseId: string;
  reason: string;
  level: ViolationLevel;
  warnedAt: string;
  warnedByWho: { firstName: string; lastName: string } | null;
}

/** spec 7 PUT /user/appeal-ban/{id} (id = the user's own _id). */
export interface AppealBanRequest {
  appealExplanation: string;
}

/** A call in Recent calls (GET /api/report/recent-calls): the last 24 hours, newest first. */
export interface RecentCall {
  matchId: string;
  partner: { firstName: string; avatar: string | null; country: string | null };
  startedAt: string;
  /** null while it is on. */
  endedAt: string | null;
  durationMs: number | null;
  /** Already reported by the caller. */
  reported: boolean;
}

/** What an admin's ban looks like: the policy's suggestion first, then the chosen penalty. */
/** A warning puts the violation on the record (it counts toward the tiers) and restricts nothing. */
export type PenaltyRequest = { kind: 'warning' } | { kind: 'restriction'; days: number } | { kind: 'permanent' };

export interface BanUserRequest {
  reason: string;
  level: ViolationLevel;
  penalty: PenaltyRequest;
  /** Required when the penalty differs from the policy's suggestion. */
  overrideReason?: string;
  /** The report this ban acts on (marked actioned). */
  reportId?: string;
}

export interface PenaltySuggestionView {
  kind: 'warning' | 'restriction' | 'permanent';
  tier: 1 | 2 | 3 | 4;
  days?: number;
  explanation: string;
}

export const REPORT_OUTCOMES = ['dismissed', 'actioned', 'false'] as const;
export type ReportOutcome = (typeof REPORT_OUTCOMES)[number];

/** What a report is about: a call (spec 3 Report 'videosession'), or something written in the feed. */
export const REPORTED_CONTENT_KINDS = ['post', 'comment', 'reply'] as const;
export type ReportedContentKind = (typeof REPORTED_CONTENT_KINDS)[number];
export type ReportType = 'videosession' | ReportedContentKind;

/**
 * POST MODERATION_PATHS.reportContent: report a post, comment or reply into the moderation queue. The reporter is the
 * signed-in user; who wrote it is the server's finding. `severity` defaults to the reason's (REPORT_REASONS).
 */
export const contentReportRequestSchema = z.object({
  kind: z.enum(REPORTED_CONTENT_KINDS),
  id: z.string().check(z.uuid('id must be the id of a post, comment or reply')),
  reason: z.enum(Object.keys(REPORT_REASONS) as [ReportReason, ...ReportReason[]]),
  severity: z.optional(z.enum(REPORT_SEVERITIES)),
  details: z.optional(z.string().check(z.trim(), z.maxLength(REPORT_DETAILS_MAX_LENGTH))),
});
export type ContentReportRequest = z.infer<typeof contentReportRequestSchema>;

export const MODERATION_PATHS = {
  uploadScreenshot: '/api/report/screenshots',
  submitReport: '/api/report/submit-report',
  /** POST ContentReportRequest: answers ReportSubmitted (201); the same content twice by one person is 409. */
  reportContent: '/api/report/content',
  recentCalls: '/api/report/recent-calls',
  banInfo: (userId: string) => `/api/user/ban-info/${encodeURIComponent(userId)}`,
  appealBan: (userId: string) => `/api/user/appeal-ban/${encodeURIComponent(userId)}`,
  banHistory: '/api/user/ban-history',
  warnings: '/api/user/warnings',
} as const;
