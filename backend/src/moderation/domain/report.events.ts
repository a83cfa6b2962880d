import type { ReportedContentKind, ReportOutcome, ReportReason, ReportSeverity } from '@serendip/proto';
import type { DomainEvent } from '../../platform/cqrs/decider.js';
import type { EventSchema } from '../../platform/personal-data/event-schemas.js';

/** One report's stream: filed, its evidence, every look at it, and its review (Ozone: a report on a subject). */
export const reportStream = (reportId: string) => `moderation-report-${reportId}`;

/** A picture kept as evidence outside the log, named by the SHA-256 the log records, so a changed file shows. */
export interface EvidenceFile {
  file: string;
  sha256: string;
  bytes: number;
}

/**
 * A party of a call reported the other (spec 3 Report, type always 'videosession'). Who reported whom is the
 * server's finding from the call, never the client's word. `screenshot` is the reporter's capture (null without one).
 */
export type ReportFiled = DomainEvent<
  'ReportFiled',
  {
    reportId: string;
    matchId: string;
    reporterId: string;
    reportedId: string;
    reason: ReportReason;
    severity: ReportSeverity;
    details: string;
    screenshot: EvidenceFile | null;
    filedAt: string;
  }
>;
/**
 * Someone reported a post, comment or reply of the feed into the queue. Who wrote it is the feed's record, never the
 * client's word; the words themselves are kept by `ReportedContentKept`, sealed as their author's.
 */
export type ContentReportFiled = DomainEvent<
  'ContentReportFiled',
  {
    reportId: string;
    reporterId: string;
    reportedId: string;
    content: { kind: ReportedContentKind; id: string; postId: string };
    reason: ReportReason;
    severity: ReportSeverity;
    details: string;
    /** A reported post's picture, kept as evidence as a call's screenshot is (null without one). */
    screenshot?: EvidenceFile | null;
    filedAt: string;
  }
>;
/** The reported words as they stood when reported: evidence that deleting them does not take away. */
export type ReportedContentKept = DomainEvent<
  'ReportedContentKept',
  { reportId: string; reportedId: string; text: string }
>;
/** The server's own frame of the reported side (matching's SnapshotTaken), which the reporter cannot forge. */
export type ServerSnapshotAttached = DomainEvent<
  'ServerSnapshotAttached',
  { reportId: string; snapshotId: string; sha256: string }
>;
/** Someone was shown the reporter's screenshot (its bytes matched the SHA-256): every look at evidence is on record. */
export type ReportScreenshotViewed = DomainEvent<'ReportScreenshotViewed', { reportId: string; viewedBy: string }>;
/** The reporter's screenshot is gone (its subject deleted the account); its SHA-256 and every look at it stay. */
export type ReportScreenshotDeleted = DomainEvent<
  'ReportScreenshotDeleted',
  { reportId: string; reason: 'account-deleted' }
>;
/**
 * The review: dismissed (nothing wrong), actioned (it led to a ban, `caseId`), or false (made up: it counts against the
 * reporter, spec 5 community guidelines).
 */
export type ReportResolved = DomainEvent<
  'ReportResolved',
  { reportId: string; reporterId: string; outcome: ReportOutcome; by: string; note: string; caseId: string | null }
>;

export type ReportEvent =
  | ReportFiled
  | ContentReportFiled
  | ReportedContentKept
  | ServerSnapshotAttached
  | ReportScreenshotViewed
  | ReportScreenshotDeleted
  | ReportResolved;

/**
 * The reporter's details are their words about the other person: sealed as the reporter's personal data. The review's
 * note is sealed as the reporter's too (it judges their report). Reasons, severities and outcomes stay for the audit.
 */
export const reportEventSchemas: EventSchema[] = [
  { type: 'ReportFiled', schemaVersion: 1, subject: (d) => d.reporterId as string, personal: ['details'] },
  { type: 'ContentReportFiled', schemaVersion: 1, subject: (d) => d.reporterId as string, personal: ['details'] },
  // The author's words are theirs: erased with their account, whatever became of the report.
  { type: 'ReportedContentKept', schemaVersion: 1, subject: (d) => d.reportedId as string, personal: ['text'] },
  { type: 'ServerSnapshotAttached', schemaVersion: 1 },
  { type: 'ReportScreenshotViewed', schemaVersion: 1 },
  { type: 'ReportScreenshotDeleted', schemaVersion: 1 },
  { type: 'ReportResolved', schemaVersion: 1, subject: (d) => d.reporterId as string, personal: ['note'] },
];
