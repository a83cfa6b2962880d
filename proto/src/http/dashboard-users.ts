import type { Role } from './auth.js';
import type { AppealStatusValue, ViolationLevel } from './moderation.js';

/**
 * The dashboard's user management (spec 2 "Admin dashboard": /dashboard/user-management and its view-details page).
 * Staff (moderators and admins) read these. A moderator sees of a person what any member sees on a public profile,
 * plus the moderation facts; last names, birth dates, cities, sessions, e-mail addresses, IPs and the personal data in
 * the audit trail only reach admins.
 */

/** Page size of the user list and of the audit trail. */
export const DASH_USERS_PAGE_SIZE = 25;

export type DashUserStatus = 'active' | 'banned' | 'deleted';

interface PageOf<T> {
  items: T[];
  /** 1-based. */
  page: number;
  totalPages: number;
  total: number;
}

/** A row of GET /api/dash/users?search=&page= (newest accounts first). */
export interface DashUserRow {
  _id: string;
  firstName: string | null;
  username: string | null;
  avatar: string | null;
  country: string | null;
  role: Role;
  status: DashUserStatus;
  registeredAt: string;
  /** Admins only; absent for moderators (see DashUserDetails' profile). */
  lastName?: string | null;
  /** Admins only; absent for moderators. */
  emailAddress?: string;
}

export type DashUserList = PageOf<DashUserRow>;

export interface DashSession {
  sessionId: string;
  userAgent: string | null;
  createdAt: string;
  lastUsedAt: string;
  endedAt: string | null;
  endReason: string | null;
  country: string | null;
  city: string | null;
  /** Admins only. */
  ip?: string | null;
}

export interface DashBan {
  caseId: string;
  reason: string;
  level: ViolationLevel;
  bannedBy: { _id: string; firstName: string | null } | null;
  bannedAt: string;
  /** null: permanent. */
  expiresAt: string | null;
  endedAt: string | null;
  endedHow: 'expired' | 'unbanned' | 'appeal-approved' | null;
  appealStatus: AppealStatusValue;
  appealExplanation: string | null;
  /** The report the ban acted on, if any. */
  reportId: string | null;
}

/** GET /api/dash/users/:userId: opening it is recorded (StaffViewedUser, 'details') and shows in the user's trail. */
export interface DashUserDetails {
  /**
   * A moderator gets what any member sees of another on a public profile (first name, username, avatar, gender, age,
   * country, bio); last name, birth date, city, e-mail and phone are an admin's only (absent for moderators).
   */
  profile: {
    _id: string;
    firstName: string | null;
    username: string | null;
    avatar: string | null;
    gender: 'male' | 'female' | null;
    /** Whole years today, from the birth date; null without one. */
    age: number | null;
    country: string | null;
    bio: string | null;
    registeredAt: string;
    /** Admins only. */
    lastName?: string | null;
    birthDate?: string | null;
    city?: string | null;
    emailAddress?: string;
    phoneNumber?: string | null;
  };
  status: {
    role: Role;
    status: DashUserStatus;
    twoFactorEnabled: boolean;
    emailVerified: boolean;
    profileCompleted: boolean;
    deletedAt: string | null;
    /** The ban on now, if any. */
    currentBan: DashBan | null;
  };
  /** Admins only (absent for moderators): where and on what the person signs in is personal data. */
  sessions?: DashSession[];
  /** Every ban, newest first. */
  bans: DashBan[];
  reports: { filed: number; against: number };
}

/** What an access record says was looked at. */
export type StaffAccessWhat = 'details' | 'audit-trail' | 'moderation-trail' | 'evidence' | 'stream-history';

/** Who did something on record: a person (first name null when unknown or deleted), or a process ('system'...). */
export type AuditActor = { kind: 'user'; _id: string; firstName: string | null } | { kind: 'system'; name: string };

/**
 * One event about a person in GET /api/dash/users/:userId/audit-trail?page= (newest first). Personal fields in
 * `summary` and `reason` read as the value (admins), 'hidden' (moderators) or 'erased' (the subject was forgotten).
 */
export interface AuditTrailEntry {
  /** The event's id in the log. */
  id: string;
  type: string;
  at: string;
  actor: AuditActor;
  reason: string | null;
  /** A short line of the event's data ("reason: spam · severity: high"). */
  summary: string;
  /** Admins only: the event's stream, whose whole history ADMIN_AUDIT_PATHS.stream reads. */
  stream?: string;
}

export interface AuditTrailPage extends PageOf<AuditTrailEntry> {
  /** The person was forgotten (account deleted): their personal data reads as 'erased'. */
  subjectErased: boolean;
  /**
   * The trail as of this read: pass it back with the next pages (`asOf=`) and they hold still while new events (the
   * access record of every page read among them) arrive on top. null while the trail is empty.
   */
  asOf: string | null;
}

export const DASH_USER_PATHS = {
  list: (search: string, page: number) =>
    `/api/dash/users?${search ? `search=${encodeURIComponent(search)}&` : ''}page=${page}`,
  details: (userId: string) => `/api/dash/users/${encodeURIComponent(userId)}`,
  auditTrail: (userId: string, page: number, asOf?: string | null) =>
    `/api/dash/users/${encodeURIComponent(userId)}/audit-trail?page=${page}${asOf ? `&asOf=${encodeURIComponent(asOf)}` : ''}`,
  role: (userId: string) => `/api/dash/users/${encodeURIComponent(userId)}/role`,
  unban: (caseId: string) => `/api/admin/bans/${encodeURIComponent(caseId)}/unban`,
} as const;
