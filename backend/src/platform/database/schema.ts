import type { ColumnType, Generated } from 'kysely';

/** Read models and plumbing tables, as kysely sees them. Each context adds its tables here. */
export interface Database {
  server_log: ServerLogTable;
  app_log: AppLogTable;
  events: EventsTable;
  checkpoints: CheckpointsTable;
  users: UsersTable;
  account_emails: { email_lower: string; user_id: string; claimed_at: Generated<Date> };
  auth_known_devices: {
    token_hash: string;
    user_id: string;
    created_at: Generated<Date>;
    last_used_at: Generated<Date>;
  };
  auth_sessions: AuthSessionsTable;
  auth_refresh_tokens: { token_hash: string; session_id: string; rotated_at: Date | null };
  auth_email_tokens: AuthEmailTokensTable;
  auth_login_challenges: AuthLoginChallengesTable;
  subject_keys: SubjectKeysTable;
  matches: MatchesTable;
  match_feedback: MatchFeedbackTable;
  evidence_snapshots: EvidenceSnapshotsTable;
  evidence_audit: EvidenceAuditTable;
  matching_separated_pairs: MatchingSeparatedPairsTable;
  moderation_bans: ModerationBansTable;
  moderation_reports: ModerationReportsTable;
  moderation_warnings: {
    case_id: string;
    user_id: string;
    reason: string;
    level: string;
    warned_by: string;
    warned_at: Date | string;
    report_id: string | null;
  };
  moderation_screenshot_uploads: ModerationScreenshotUploadsTable;
  audit_trail: AuditTrailTable;
  audit_trail_refs: { ref: string; subject_ids: string[] };
  identity_barred_addresses: { address_hmac: string; case_id: string; barred_at: Generated<Date> };
  dash_calls: DashCallsTable;
  dash_call_hours: { hour: Date | string; paired: Generated<number>; relayed: Generated<number> };
  dash_moderation_days: { day: Date | string; reports: Generated<number>; bans: Generated<number> };
  notifications: NotificationsTable;
  notification_reads: { user_id: string; notification_id: string; read_at: Date | string };
  notification_read_marks: { user_id: string; all_read_at: Date | string };
  feed_posts: FeedPostsTable;
  feed_likes: { post_id: string; user_id: string; liked_at: ColumnType<Date, Date | string, Date | string> };
  feed_contributions: FeedContributionsTable;
  feed_hidden_authors: { case_id: string; user_id: string };
  feed_images: {
    image_id: string;
    uploader_id: string;
    file: string;
    bytes: number;
    uploaded_at: Generated<Date>;
    post_id: string | null;
  };
  online_nodes: { node_id: string; beat_at: Date | string };
  online_users: {
    node_id: string;
    user_id: string;
    status: Generated<'online' | 'away'>;
    device: Generated<'mobile' | 'desktop'>;
    changed_at: Generated<Date | string>;
  };
}

export interface EventsTable {
  seq: Generated<string>;
  transaction_id: Generated<string>;
  id: string;
  stream_id: string;
  revision: string | bigint;
  type: string;
  data: unknown;
  metadata: unknown;
  recorded_at: Generated<Date>;
}

export interface CheckpointsTable {
  name: string;
  commit: string | bigint;
  prepare: string | bigint;
  updated_at: Generated<Date>;
}

export interface SubjectKeysTable {
  subject_id: string;
  /** Wrapped with the key-encryption key; null once the subject was forgotten. */
  key: Buffer | null;
  created_at: Generated<Date>;
  forgotten_at: Date | null;
}

/** Operational log shown to admins on the System Log page (spec 2, 7: GET /dash/logs). */
export interface ServerLogTable {
  id: Generated<string>;
  timestamp: ColumnType<Date, Date | string | undefined, never>;
  level: 'info' | 'warn' | 'error';
  message: string;
  /** The backend process that wrote it (a row per start lets operators see restarts). */
  instance: string;
}

/** The application's own log lines, info and above, personal data scrubbed (migration 0018; spec 2 System Log). */
export interface AppLogTable {
  id: Generated<string>;
  logged_at: Date | string;
  level: string;
  message: string;
  /** The Nest context or pino component that wrote the line, when it named one. */
  context: string | null;
  /** host/pid of the process that wrote it. */
  instance: string;
}

/** identity read model (spec 3 "User"). */
export interface UsersTable {
  user_id: string;
  email_address: string;
  email_verified: Generated<boolean>;
  first_name: string | null;
  last_name: string | null;
  username: string | null;
  gender: 'male' | 'female' | null;
  birth_date: string | null;
  /** True for the admin role only (kept beside `role` for the code that asks just that). */
  is_admin: Generated<boolean>;
  /** spec 6 Admin: who reaches the dashboard and what they may do there. */
  role: Generated<'user' | 'moderator' | 'admin'>;
  two_factor_enabled: Generated<boolean>;
  hide_ip: Generated<boolean>;
  is_finished_steps: Generated<boolean>;
  registered_at: ColumnType<Date, Date | string, never>;
  phone_number: string | null;
  bio: string | null;
  avatar_url: string | null;
  country: string | null;
  city: string | null;
  deleted_at: Date | null;
}

export interface AuthSessionsTable {
  session_id: string;
  user_id: string;
  created_at: Generated<Date>;
  last_used_at: Generated<Date>;
  expires_at: Date;
  ended_at: Date | null;
  end_reason: string | null;
  user_agent: string | null;
  ip: string | null;
  /** From a local geo-IP lookup of `ip` at sign-in; null when unknown. */
  country: string | null;
  city: string | null;
  /** Started with the mailed sign-in code (two-factor login), not the password alone: staff need it (spec 6 Admin). */
  signed_in_with_code: Generated<boolean>;
}

export interface AuthEmailTokensTable {
  token_hash: string;
  user_id: string;
  purpose: 'verify-email' | 'reset-password' | 'change-email';
  expires_at: Date;
  used_at: Date | null;
  new_email: string | null;
}

export interface AuthLoginChallengesTable {
  challenge_id: string;
  user_id: string;
  code_hash: string;
  attempts: Generated<number>;
  expires_at: Date;
  used_at: Date | null;
}

/** matching read model: one row per call. Ids only; profiles stay with identity. */
export interface MatchesTable {
  match_id: string;
  user_a: string;
  user_b: string;
  paired_at: Date | string;
  ended_at: Date | string | null;
  ended_by: string | null;
  end_reason: string | null;
  /** Set when the call went through the SFU ('relay-mode' | 'hide-ip' | 'p2p-failed'). */
  relay_reason: string | null;
  sfu_node: string | null;
  relayed_at: Date | string | null;
}

/** Ratings only: the feedback's free text stays sealed in the log. */
export interface MatchFeedbackTable {
  match_id: string;
  user_id: string;
  rating: number;
  given_at: Date | string;
}

/** matching: the snapshots still kept (report evidence); the row goes when the JPEG does. */
export interface EvidenceSnapshotsTable {
  snapshot_id: string;
  match_id: string;
  /** Whom it shows. */
  user_id: string;
  requested_by: string;
  report_id: string | null;
  file: string;
  bytes: number;
  taken_at: Date | string;
  /** How many open cases keep it. */
  holds: Generated<number>;
}

/** matching: each thing done with a snapshot (taken, viewed, held, released, deleted), by whom and when. */
export interface EvidenceAuditTable {
  id: Generated<string>;
  event_id: string;
  snapshot_id: string;
  match_id: string;
  user_id: string;
  action: 'taken' | 'viewed' | 'held' | 'released' | 'deleted';
  actor: string;
  at: Date | string;
  /** The report taken for, the case holding or letting go, or why deleted. */
  detail: string | null;
}

/** matching: two users a report keeps apart for good; ids in order (`user_a` < `user_b`), one row per pair. */
export interface MatchingSeparatedPairsTable {
  user_a: string;
  user_b: string;
  /** The call reported, and the report that did it (the first, if both sides reported). */
  match_id: string;
  report_id: string;
  separated_at: Date | string;
}

/** moderation: one row per ban (case), with its appeal and how it ended. */
export interface ModerationBansTable {
  case_id: string;
  user_id: string;
  reason: string;
  level: string;
  banned_by: string;
  banned_at: Date | string;
  /** null: permanent. */
  expires_at: Date | string | null;
  suggestion: string;
  override_reason: string | null;
  report_id: string | null;
  ended_at: Date | string | null;
  ended_how: 'expired' | 'unbanned' | 'appeal-approved' | null;
  ended_by: string | null;
  appeal_status: Generated<'none' | 'pending' | 'approved' | 'rejected'>;
  appeal_explanation: string | null;
  appealed_at: Date | string | null;
  appeal_decided_at: Date | string | null;
  appeal_decided_by: string | null;
  appeal_note: string | null;
}

/** moderation: one row per report, its evidence and its review. */
export interface ModerationReportsTable {
  report_id: string;
  /** null for a report of something written in the feed (0026). */
  match_id: string | null;
  content_kind: 'post' | 'comment' | 'reply' | null;
  content_id: string | null;
  content_post_id: string | null;
  /** The reported words as kept; null once their author is forgotten. */
  content_text: string | null;
  reporter_id: string;
  reported_id: string;
  reason: string;
  severity: string;
  details: Generated<string>;
  screenshot_file: string | null;
  screenshot_sha256: string | null;
  snapshot_id: string | null;
  snapshot_sha256: string | null;
  filed_at: Date | string;
  status: Generated<'open' | 'dismissed' | 'actioned' | 'false'>;
  resolved_at: Date | string | null;
  resolved_by: string | null;
  resolution_note: string | null;
  case_id: string | null;
  /** The dashboard's `#`: in order of filing (0021). */
  report_no: number | null;
}

/** moderation: a screenshot uploaded for a report not yet filed (kept an hour, then deleted). */
export interface ModerationScreenshotUploadsTable {
  screenshot_id: string;
  uploader_id: string;
  file: string;
  sha256: string;
  bytes: number;
  uploaded_at: Generated<Date>;
}

/** admin: one row per call, for the overview's medians (wait to match, call length). */
export interface DashCallsTable {
  match_id: string;
  paired_at: Date | string;
  /** How long the side that waited longer waited before this pairing. */
  wait_ms: number;
  relayed: Generated<boolean>;
  ended_at: Date | string | null;
  duration_ms: string | number | null;
}

/** The admin context's index of the log by person (migration 0020): which events are about whom. */
export interface AuditTrailTable {
  subject_id: string;
  commit: string | bigint;
  prepare: string | bigint;
  event_id: string;
  stream_id: string;
  revision: string | bigint;
  type: string;
  actor: string;
  occurred_at: Date | string;
}

export interface FeedPostsTable {
  post_id: string;
  /** bigint, as text. */
  seq: ColumnType<string, never, never>;
  author_id: string;
  text: string;
  created_at: ColumnType<Date, Date | string, never>;
  like_count: Generated<number>;
  comment_count: Generated<number>;
  image_id: string | null;
}

export interface FeedContributionsTable {
  id: string;
  kind: 'comment' | 'reply';
  post_id: string;
  comment_id: string;
  author_id: string;
  text: string;
  created_at: ColumnType<Date, Date | string, never>;
  removed_by: string | null;
  removed_categories: string[] | null;
  removed_at: ColumnType<Date | null, Date | string | null, Date | string | null>;
  appeal_status: Generated<'none' | 'pending' | 'approved' | 'rejected'>;
  appeal_explanation: string | null;
  appealed_at: ColumnType<Date | null, Date | string | null, Date | string | null>;
}

export interface NotificationsTable {
  notification_id: string;
  /** null: to everyone. */
  recipient_id: string | null;
  kind: string;
  title: string;
  description: string;
  admin_announcement: string | null;
  force_open: boolean;
  link: string | null;
  details: ColumnType<Record<string, unknown> | null, string | null, string | null>;
  sent_by: string;
  sent_at: ColumnType<Date, Date | string, never>;
}
