import type { AuditActor } from './dashboard-users.js';

/**
 * The audit API for admins (spec 6 Admin: "admins auditing complete histories"): every event about a person, and one
 * stream's whole history, with the data as the log has it and personal fields opened. Admins only: a moderator reads
 * the dashboard's audit trail (DASH_USER_PATHS.auditTrail), where personal data is hidden. Each read is recorded as a
 * look at the person (StaffViewedUser).
 */

/** Events a page holds unless `limit` says otherwise (1 to ADMIN_AUDIT_MAX_LIMIT). */
export const ADMIN_AUDIT_PAGE_SIZE = 25;
export const ADMIN_AUDIT_MAX_LIMIT = 100;

/** One event of the log, as an admin audits it. */
export interface AuditEvent {
  /** The event's id in the log. */
  id: string;
  type: string;
  stream: string;
  /** 0 for the first event of its stream. */
  revision: number;
  /** Where it stands in the log of all events: "commit:prepare" (as `npm run events` prints it). */
  position: string;
  /** When it was decided. */
  at: string;
  actor: AuditActor;
  /** The reason, note or explanation given, if any ('erased' once its subject was forgotten). */
  reason: string | null;
  /**
   * The event's fields, personal ones opened; a forgotten subject's read 'erased'. Password hashes and where evidence
   * files lie are never in it, at any depth.
   */
  data: Record<string, unknown>;
}

/** GET /api/admin/audit/users/{id}: newest first. */
export interface AuditUserHistory {
  items: AuditEvent[];
  /**
   * Pass it back as `cursor` for the next (older) events; null after the oldest. It is a log position: events written
   * meanwhile land above the first page and never shift the next ones.
   */
  nextCursor: string | null;
  /** The person was forgotten (account deleted): their personal data reads as 'erased'. */
  subjectErased: boolean;
}

/** GET /api/admin/audit/streams/{stream}: oldest first. */
export interface AuditStreamHistory {
  stream: string;
  items: AuditEvent[];
  /** Pass it back as `cursor` for the next (later) events; null after the last one there is now. */
  nextCursor: string | null;
}

const query = (cursor?: string | null, limit?: number) => {
  const params = [
    ...(cursor ? [`cursor=${encodeURIComponent(cursor)}`] : []),
    ...(limit !== undefined ? [`limit=${limit}`] : []),
  ];
  return params.length ? `?${params.join('&')}` : '';
};

export const ADMIN_AUDIT_PATHS = {
  user: (userId: string, cursor?: string | null, limit?: number) =>
    `/api/admin/audit/users/${encodeURIComponent(userId)}${query(cursor, limit)}`,
  stream: (stream: string, cursor?: string | null, limit?: number) =>
    `/api/admin/audit/streams/${encodeURIComponent(stream)}${query(cursor, limit)}`,
} as const;
