import { aggregateKind, type BoundedContext } from '../platform/event-core/bounded-context.js';
import { notificationEventSchemas } from './domain/notification.events.js';
import { notificationsIntegrationEvents } from './integration/notifications.integration-events.js';
import { notificationsProjection } from './projections/notifications.projection.js';
import { inbox } from './domain/inbox.decider.js';
import { notification } from './domain/notification.decider.js';
import { inboxStream, notificationStream } from './domain/notification.events.js';

/** Notifications: what people are told (announcements, moderation outcomes) and what each of them has read. */
export const notificationsContext: BoundedContext = {
  name: 'notifications',
  eventSchemas: notificationEventSchemas,
  projections: [notificationsProjection],
  integrationEvents: notificationsIntegrationEvents,
  aggregates: [aggregateKind(inboxStream(''), inbox), aggregateKind(notificationStream(''), notification)],
};
