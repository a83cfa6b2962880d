import type { ReportReason, ReportSeverity, ReportType, ViolationLevel } from './moderation.js';

/** Where a report stands: open until a moderator dismisses it, marks it false, or acts on it with a ban. */
export const REPORT_STATUSES = ['open', 'dismissed', 'actioned', 'false'] as const;
export type ReportStatus = (typeof REPORT_STATUSES)[number];

/** A person named in a dashboard row: `firstName` null and `erased` true once the account is deleted. */
export interface DashPerson {
  _id: string;
  firstName: string | null;
  erased?: true;
}

/**
 * spec 3 Report "as listed to admins" (_id, type, reason, severity, reportedByWho, reportedUser, screenshot, createdAt)
 * plus what the dashboard's table needs: the `#`, the review status, and the server's own frame of the reported side.
 * The picture URLs are staff routes that record every look.
 */
export interface DashReport {
  _id: string;
  /** The table's `#`: stable, in order of filing. */
  number: number;
  /** A call, or a post, comment or reply of the feed (then `content` says which, and what it said). */
  type: ReportType;
  /**
   * The reported words as they were when reported (kept with the report, so deleting them hides nothing); the text is
   * absent once their author deleted the account.
   */
  content?: { postId: string; id: string; text?: string };
  reason: ReportReason;
  severity: ReportSeverity;
  reportedByWho: DashPerson;
  reportedUser: DashPerson;
  /** The reporter's screenshot; absent without one (or once its subject deleted the account). */
  screenshot?: string;
  /** The media server's frame of the reported side (relayed calls only). */
  serverSnapshot?: string;
  createdAt: string;
  status: ReportStatus;
  /** The ban that acted on it. */
  caseId: string | null;
  /** The reporter's own words, if any. */
  details?: string;
  /**
   * Whether the viewer may review it (GET /api/dash/report/get-all only): nobody reviews a report they filed or one
   * about themselves. Absent in pushes, which reach all staff alike: the page compares the viewer's own id.
   */
  canReview?: boolean;
}

/** The 403s of a review (dismiss, mark false, or ban acting on it) by the person a report is about, or its reporter. */
export const REVIEW_REPORT_ABOUT_YOU = 'You cannot review a report about yourself.';
export const REVIEW_REPORT_YOU_FILED = 'You cannot review a report you filed.';

/** GET /api/dash/report/get-all filters; paging info comes in the X-Total-Count and X-Total-Pages headers. */
export interface DashReportQuery {
  page?: number;
  status?: ReportStatus | 'all';
  severity?: ReportSeverity;
  reason?: ReportReason;
}
export const DASH_REPORTS_PAGE_SIZE = 25;
export const TOTAL_COUNT_HEADER = 'X-Total-Count';
export const TOTAL_PAGES_HEADER = 'X-Total-Pages';

/** A ban whose user appealed, with what it rests on (GET /api/dash/appeals): pending, oldest first. */
export interface DashAppeal {
  caseId: string;
  user: DashPerson;
  reason: string;
  level: ViolationLevel;
  bannedAt: string;
  /** null: permanent. */
  expiresAt: string | null;
  bannedBy: DashPerson;
  appealExplanation: string;
  appealedAt: string;
  /** The report(s) the ban acted on, with their pictures. */
  evidence: DashReport[];
  /**
   * Whether the viewer may decide it. An admin decides every appeal; a moderator only those of bans of a plain user
   * for up to 30 days that a moderator decided (an approved appeal lifts the ban: overruling an admin or a longer ban
   * stays an admin's call). And a moderator does not decide the appeal of a ban they decided themselves (an admin, the
   * final authority, may: a one-admin team must still decide).
   */
  canDecide: boolean;
}

export interface DashAppealsPage {
  items: DashAppeal[];
  page: number;
  totalPages: number;
  total: number;
}
export const DASH_APPEALS_PAGE_SIZE = 10;

/** The 403 a moderator gets deciding an appeal that is an admin's to decide. */
export const ONLY_ADMINS_DECIDE_APPEAL = 'Only an admin may decide the appeal of this ban.';
/** The 403 a moderator gets deciding the appeal of a ban they decided: a review is someone else's look. */
export const OWN_BAN_APPEAL = 'Another staff member decides the appeal of a ban you decided.';

/** Decide an appeal (POST, body {outcome, note}): approve ends the ban, reject keeps it; the note is required. */
export interface DecideAppealRequest {
  outcome: 'approved' | 'rejected';
  note: string;
}

export const DASH_MODERATION_PATHS = {
  reports: '/api/dash/report/get-all',
  appeals: '/api/dash/appeals',
  resolveReport: (reportId: string) => `/api/admin/reports/${encodeURIComponent(reportId)}/resolve`,
  penaltySuggestion: (userId: string) => `/api/admin/users/${encodeURIComponent(userId)}/penalty-suggestion`,
  ban: (userId: string) => `/api/admin/users/${encodeURIComponent(userId)}/ban`,
  decideAppeal: (caseId: string) => `/api/admin/bans/${encodeURIComponent(caseId)}/appeal`,
} as const;
