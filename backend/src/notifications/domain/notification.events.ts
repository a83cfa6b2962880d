import type { NotificationKind } from '@serendip/proto';
import type { DomainEvent } from '../../platform/cqrs/decider.js';
import type { EventSchema } from '../../platform/personal-data/event-schemas.js';

/** One notification's stream: it was sent, once. */
export const notificationStream = (notificationId: string) => `notification-${notificationId}`;

/**
 * A user's read state (spec 4 "Notifications"): what they read, confirmed or marked all read. Theirs, apart from the
 * notifications: an announcement to everyone is one stream that a million readers never contend on.
 */
export const inboxStream = (userId: string) => `notification-inbox-${userId}`;

/** spec 3 Notification: sent to one user, or to everyone (`recipientId` null), by an admin or by the system. */
export type NotificationSent = DomainEvent<
  'NotificationSent',
  {
    notificationId: string;
    /** null: everyone (those who joined before it was sent). */
    recipientId: string | null;
    kind: NotificationKind;
    title: string;
    description: string;
    /** An admin's own words (spec 2 "Announcement overlay"). */
    adminAnnouncement?: string;
    forceOpen: boolean;
    link?: string;
    details?: Record<string, unknown>;
    /** An admin's user id, or `system` for what the product tells people itself (moderation outcomes). */
    sentBy: string;
  }
>;
export type NotificationRead = DomainEvent<'NotificationRead', { notificationId: string; userId: string }>;
/** A forced-open notification confirmed with OK (spec 2 "Announcement overlay", 4 "Notifications"). */
export type ForcedNotificationAcknowledged = DomainEvent<
  'ForcedNotificationAcknowledged',
  { notificationId: string; userId: string }
>;
/**
 * "Mark all read": every notification sent up to `upTo` (ISO) counts as read for this user, without a row for each;
 * a forced-open one still waits for its OK.
 */
export type AllNotificationsRead = DomainEvent<'AllNotificationsRead', { userId: string; upTo: string }>;

export type NotificationEvent = NotificationSent;
export type InboxEvent = NotificationRead | ForcedNotificationAcknowledged | AllNotificationsRead;

/**
 * What is said to one person is theirs: an announcement to one user names them, and a moderation outcome's texts may
 * speak of their case. Sealed under the recipient's key, so erased with the account. An announcement to everyone
 * names no one and is not sealed.
 */
export const notificationEventSchemas: EventSchema[] = [
  {
    type: 'NotificationSent',
    schemaVersion: 1,
    subject: (d) => (d.recipientId as string | null) ?? null,
    personal: ['title', 'description', 'adminAnnouncement', 'details'],
  },
  { type: 'NotificationRead', schemaVersion: 1 },
  { type: 'ForcedNotificationAcknowledged', schemaVersion: 1 },
  { type: 'AllNotificationsRead', schemaVersion: 1 },
];
