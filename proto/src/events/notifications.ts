import { z } from 'zod/mini';
import type { IntegrationEvent } from './integration-event.js';

/**
 * A notification was sent (notifications context): to one user, or to everyone (`recipientId` null). Ids only: its
 * texts may be personal and stay in the log, sealed; the node that delivers it reads them there.
 */
export const notificationSentDataSchema = z.object({
  notificationId: z.string().check(z.minLength(1)),
  recipientId: z.nullable(z.string().check(z.minLength(1))),
});
export type NotificationSentEvent = IntegrationEvent<'NotificationSent', z.infer<typeof notificationSentDataSchema>>;
export type NotificationsIntegrationEvent = NotificationSentEvent;
