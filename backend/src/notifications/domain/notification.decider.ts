import type { Decider } from '../../platform/cqrs/decider.js';
import type { NotificationEvent, NotificationSent } from './notification.events.js';

export type NotificationCommand = { type: 'SendNotification'; notification: NotificationSent['data'] };

export interface NotificationState {
  sent: boolean;
}

/**
 * A notification is sent once: its id is derived from what caused it (a moderation event's id, an admin's request), so
 * a cause handled twice (a redelivered event, a retried request) sends nothing the second time.
 */
export const notification: Decider<NotificationCommand, NotificationState, NotificationEvent> = {
  initialState: { sent: false },
  evolve: (state, event) => (event.type === 'NotificationSent' ? { sent: true } : state),
  decide(command, state) {
    if (state.sent) return [];
    return [{ type: 'NotificationSent', data: command.notification }];
  },
};
