import type { NotificationView } from '@serendip/proto';

const newestFirst = (a: NotificationView, b: NotificationView) =>
  Date.parse(b.createdAt) - Date.parse(a.createdAt) || (a._id < b._id ? 1 : a._id > b._id ? -1 : 0);

/**
 * The list after `incoming` (a page, or live arrivals) is merged in by _id (spec 4 "Live content merging": no
 * duplicates): an id already listed keeps one entry, the incoming copy; the result is newest first.
 */
export function mergeNotifications(listed: NotificationView[], incoming: NotificationView[]): NotificationView[] {
  const byId = new Map(listed.map((n) => [n._id, n]));
  for (const notification of incoming) byId.set(notification._id, notification);
  return [...byId.values()].sort(newestFirst);
}

/** spec 2 "Announcement overlay": the forced-open ones still to confirm, oldest first, each once. */
export function mergeForced(waiting: NotificationView[], incoming: NotificationView[], confirmed: string[]) {
  const byId = new Map(waiting.map((n) => [n._id, n]));
  for (const notification of incoming) {
    if (notification.forceOpen && !notification.read && !confirmed.includes(notification._id)) {
      byId.set(notification._id, notification);
    }
  }
  return [...byId.values()].sort((a, b) => -newestFirst(a, b));
}
