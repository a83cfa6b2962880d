import type { NotificationsIntegrationEvent } from '@serendip/proto';
import type { RecordedEvent } from '../../platform/event-store/event-store.js';
import type { InboxEvent, NotificationEvent } from '../domain/notification.events.js';

/** What notifications tells others (and its own delivery): a notification was sent, to whom. Ids only. */
export function notificationsIntegrationEvents(recorded: RecordedEvent): NotificationsIntegrationEvent[] {
  const event = recorded as unknown as NotificationEvent | InboxEvent;
  if (event.type !== 'NotificationSent') return [];
  const { notificationId, recipientId } = event.data;
  return [
    {
      id: recorded.id,
      context: 'notifications',
      occurredAt: recorded.metadata.occurredAt,
      type: 'NotificationSent',
      data: { notificationId, recipientId },
    },
  ];
}
