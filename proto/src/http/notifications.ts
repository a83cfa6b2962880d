import { z } from 'zod/mini';

/**
 * Notifications (spec 3 "Notification", 4 "Notifications", 7): what a user is told by the team or by what happened to
 * their reports, appeals, bans and posts. An announcement to everyone is one notification with no recipient: each
 * user's read state is theirs (written when they read it), never a row per user when it is sent.
 */
export const NOTIFICATION_KINDS = [
  /** An admin's announcement (to everyone or to one user). */
  'announcement',
  /** A report you filed was acted on (the reported user was banned). */
  'report-actioned',
  'appeal-approved',
  'appeal-rejected',
  /** Your ban ended (it expired, or was lifted). */
  'ban-ended',
  /** Feed: someone liked your post, commented on it, or replied to your comment. */
  'post-liked',
  'post-commented',
  'comment-replied',
  /** Your comment or reply was removed by the profanity filter or an admin ('Comment Removed' modal, forced-open). */
  'comment-removed',
  /** The appeal of a removed comment was decided (approved: it is shown again). */
  'removal-appeal-decided',
] as const;
export type NotificationKind = (typeof NOTIFICATION_KINDS)[number];

/** spec 3 "Notification": _id, title, description, AdminAnnouncement, forceOpen; plus what the list needs. */
export interface NotificationView {
  _id: string;
  kind: NotificationKind;
  title: string;
  description: string;
  /** An admin's own words, shown apart from the description (spec 2 "Announcement overlay"). */
  AdminAnnouncement?: string;
  forceOpen: boolean;
  /** Read by this user (for a forced-open one: confirmed with OK). */
  read: boolean;
  /** ISO-8601. */
  createdAt: string;
  /** An in-app path to open it at (e.g. '/appeal'), when it has one. */
  link?: string;
  /** Kind-specific details for the client (e.g. a removed comment's text and date, the matched categories). */
  details?: Record<string, unknown>;
}

/** Limits of an admin announcement. */
export const ANNOUNCEMENT_LIMITS = { title: 120, description: 1000, adminAnnouncement: 2000 } as const;

/** POST /api/dash/announcements (admins only): to everyone, or to one user (`userId`). */
export const announcementRequestSchema = z.object({
  title: z.string().check(z.trim(), z.minLength(1, 'title is required'), z.maxLength(ANNOUNCEMENT_LIMITS.title)),
  description: z
    .string()
    .check(z.trim(), z.minLength(1, 'description is required'), z.maxLength(ANNOUNCEMENT_LIMITS.description)),
  adminAnnouncement: z.optional(z.string().check(z.trim(), z.maxLength(ANNOUNCEMENT_LIMITS.adminAnnouncement))),
  forceOpen: z.boolean(),
  /** Absent or null: everyone. */
  userId: z.optional(z.nullable(z.string().check(z.uuid('userId must be a user id')))),
});
export type AnnouncementRequest = z.infer<typeof announcementRequestSchema>;

export const NOTIFICATION_PAGE_SIZE = 20;
/** The list's answer header: how many of the user's notifications are unread (the bell's count). */
export const UNREAD_COUNT_HEADER = 'X-Unread-Count';

export const NOTIFICATION_PATHS = {
  /** GET ?page=1 : the user's notifications, newest first, NOTIFICATION_PAGE_SIZE a page; headers X-Total-Count,
   * X-Total-Pages and X-Unread-Count. Only for oneself (403 otherwise). */
  list: (userId: string) => `/api/notifications/${encodeURIComponent(userId)}`,
  /** GET: the forced-open ones not yet confirmed, oldest first. Only for oneself. */
  forceOpen: (userId: string) => `/api/notifications/force-open/${encodeURIComponent(userId)}`,
  /** PUT: confirm a forced-open one (OK). Only its recipient (404 for anyone else). */
  markForceAsRead: (id: string) => `/api/notifications/${encodeURIComponent(id)}/markForceAsRead`,
  /** PUT: mark one read. Only its recipient. */
  markRead: (id: string) => `/api/notifications/${encodeURIComponent(id)}/read`,
  /** PUT: mark all of one's notifications read. */
  markAllRead: '/api/notifications/read-all',
  /** POST (admins): send an announcement. */
  announce: '/api/dash/announcements',
} as const;
