import { describe, it } from 'vitest';
import { DeciderSpecification } from '../../platform/cqrs/decider-specification.js';
import { inbox, type ReadTarget } from './inbox.decider.js';
import type { InboxEvent } from './notification.events.js';

const now = new Date('2026-11-26T12:00:00Z');
const spec = DeciderSpecification.for(inbox);
const given = (events: InboxEvent[]) => spec.given(events, { now, actor: 'ada' });

const sentAt = (minutesAgo: number) => new Date(now.getTime() - minutesAgo * 60_000).toISOString();
const news: ReadTarget = { notificationId: 'n1', forceOpen: false, sentAt: sentAt(30) };
const forced: ReadTarget = { notificationId: 'n2', forceOpen: true, sentAt: sentAt(30) };
const allReadTenMinutesAgo: InboxEvent = { type: 'AllNotificationsRead', data: { userId: 'ada', upTo: sentAt(10) } };
const read = (notificationId: string): InboxEvent => ({
  type: 'NotificationRead',
  data: { notificationId, userId: 'ada' },
});

describe("a user's read state (spec 4 Notifications)", () => {
  it('records a read once; reading it again records nothing', () => {
    given([])
      .when({ type: 'MarkRead', userId: 'ada', target: news })
      .then([read('n1')]);
    given([read('n1')])
      .when({ type: 'MarkRead', userId: 'ada', target: news })
      .thenNothingHappened();
  });

  it('counts what was sent before "mark all read" as read, and nothing sent after it', () => {
    given([allReadTenMinutesAgo]).when({ type: 'MarkRead', userId: 'ada', target: news }).thenNothingHappened();
    const later = { ...news, notificationId: 'n3', sentAt: sentAt(5) };
    given([allReadTenMinutesAgo])
      .when({ type: 'MarkRead', userId: 'ada', target: later })
      .then([read('n3')]);
  });

  it('leaves a forced-open one waiting for its OK after "mark all read"; OK confirms it, once', () => {
    const confirmed: InboxEvent = {
      type: 'ForcedNotificationAcknowledged',
      data: { notificationId: 'n2', userId: 'ada' },
    };
    given([allReadTenMinutesAgo]).when({ type: 'ConfirmForced', userId: 'ada', target: forced }).then([confirmed]);
    given([confirmed]).when({ type: 'ConfirmForced', userId: 'ada', target: forced }).thenNothingHappened();
    // Opened from the list, it is read (and no longer forced open).
    given([])
      .when({ type: 'MarkRead', userId: 'ada', target: forced })
      .then([read('n2')]);
    given([read('n2')])
      .when({ type: 'ConfirmForced', userId: 'ada', target: forced })
      .thenNothingHappened();
  });

  it('marks all read as of now, and a later "mark all read" never moves the moment back', () => {
    given([])
      .when({ type: 'MarkAllRead', userId: 'ada' })
      .then([{ type: 'AllNotificationsRead', data: { userId: 'ada', upTo: now.toISOString() } }]);
    const earlier: InboxEvent = { type: 'AllNotificationsRead', data: { userId: 'ada', upTo: sentAt(60) } };
    given([allReadTenMinutesAgo, earlier])
      .when({ type: 'MarkRead', userId: 'ada', target: news })
      .thenNothingHappened();
  });
});
