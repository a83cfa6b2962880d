import type { Decider } from '../../platform/cqrs/decider.js';
import type { InboxEvent } from './notification.events.js';

/** What the handler found in the read model about the notification being read (it is visible to this user). */
export interface ReadTarget {
  notificationId: string;
  forceOpen: boolean;
  /** ISO. */
  sentAt: string;
}

export type InboxCommand =
  | { type: 'MarkRead'; userId: string; target: ReadTarget }
  | { type: 'ConfirmForced'; userId: string; target: ReadTarget }
  | { type: 'MarkAllRead'; userId: string };

export interface InboxState {
  read: Set<string>;
  /** ms: everything not forced-open sent up to then is read. */
  allReadUpTo: number | null;
}

const isRead = (state: InboxState, { notificationId, forceOpen, sentAt }: ReadTarget) =>
  state.read.has(notificationId) ||
  (!forceOpen && state.allReadUpTo !== null && Date.parse(sentAt) <= state.allReadUpTo);

/**
 * One user's read state (spec 4 "Notifications"). Reading what is already read records nothing. A forced-open
 * notification is read once confirmed (OK, or opened from the list); "mark all read" leaves forced-open ones waiting
 * for their OK, so an announcement that must be seen is seen.
 */
export const inbox: Decider<InboxCommand, InboxState, InboxEvent> = {
  initialState: { read: new Set(), allReadUpTo: null },

  evolve(state, event) {
    switch (event.type) {
      case 'NotificationRead':
      case 'ForcedNotificationAcknowledged':
        return { ...state, read: new Set(state.read).add(event.data.notificationId) };
      case 'AllNotificationsRead':
        return { ...state, allReadUpTo: Math.max(state.allReadUpTo ?? 0, Date.parse(event.data.upTo)) };
    }
  },

  decide(command, state, { now }) {
    switch (command.type) {
      case 'MarkRead':
        if (isRead(state, command.target)) return [];
        return [
          {
            type: 'NotificationRead',
            data: { notificationId: command.target.notificationId, userId: command.userId },
          },
        ];
      case 'ConfirmForced':
        if (isRead(state, command.target)) return [];
        return [
          {
            type: command.target.forceOpen ? 'ForcedNotificationAcknowledged' : 'NotificationRead',
            data: { notificationId: command.target.notificationId, userId: command.userId },
          },
        ];
      case 'MarkAllRead':
        return [{ type: 'AllNotificationsRead', data: { userId: command.userId, upTo: now.toISOString() } }];
    }
  },
};
