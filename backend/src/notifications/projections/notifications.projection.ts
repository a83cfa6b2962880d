import type { RecordedEvent } from '../../platform/event-store/event-store.js';
import { plain } from '../../platform/personal-data/personal-data-vault.js';
import type { Projection } from '../../platform/projections/projection.js';
import type { InboxEvent, NotificationEvent } from '../domain/notification.events.js';

const HANDLED = new Set<string>([
  'NotificationSent',
  'NotificationRead',
  'ForcedNotificationAcknowledged',
  'AllNotificationsRead',
]);

/**
 * `notifications` (one row each; recipient null for everyone), `notification_reads` (a row once a user read one) and
 * `notification_read_marks` (a user's latest "mark all read"): what the list, the unread count and the forced-open
 * list are read from.
 */
export const notificationsProjection: Projection = {
  name: 'notifications.inbox',

  canHandle: (event) => HANDLED.has(event.type),

  async apply(trx, recorded: RecordedEvent) {
    const event = recorded as unknown as NotificationEvent | InboxEvent;
    switch (event.type) {
      case 'NotificationSent': {
        const d = event.data;
        const details = plain(d.details);
        await trx
          .insertInto('notifications')
          .values({
            notification_id: d.notificationId,
            recipient_id: d.recipientId,
            kind: d.kind,
            // A forgotten recipient's texts read as empty (their rows go with the account anyway).
            title: plain(d.title) ?? '',
            description: plain(d.description) ?? '',
            admin_announcement: plain(d.adminAnnouncement) ?? null,
            force_open: d.forceOpen,
            link: d.link ?? null,
            details: details ? JSON.stringify(details) : null,
            sent_by: d.sentBy,
            sent_at: recorded.metadata.occurredAt,
          })
          .onConflict((c) => c.column('notification_id').doNothing())
          .execute();
        return;
      }
      case 'NotificationRead':
      case 'ForcedNotificationAcknowledged':
        await trx
          .insertInto('notification_reads')
          .values({
            user_id: event.data.userId,
            notification_id: event.data.notificationId,
            read_at: recorded.metadata.occurredAt,
          })
          .onConflict((c) => c.columns(['user_id', 'notification_id']).doNothing())
          .execute();
        return;
      case 'AllNotificationsRead':
        await trx
          .insertInto('notification_read_marks')
          .values({ user_id: event.data.userId, all_read_at: event.data.upTo })
          .onConflict((c) =>
            c.column('user_id').doUpdateSet((eb) => ({
              all_read_at: eb.fn('greatest', [
                eb.ref('notification_read_marks.all_read_at'),
                eb.ref('excluded.all_read_at'),
              ]),
            })),
          )
          .execute();
        return;
      default: {
        const unknown: never = event;
        throw new Error(`unhandled event ${(unknown as { type: string }).type}`);
      }
    }
  },

  async reset(trx) {
    await trx.deleteFrom('notification_read_marks').execute();
    await trx.deleteFrom('notification_reads').execute();
    await trx.deleteFrom('notifications').execute();
  },
};
