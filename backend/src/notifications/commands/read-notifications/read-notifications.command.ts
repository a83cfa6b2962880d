import { Inject } from '@nestjs/common';
import { Command, CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { DomainError } from '../../../platform/cqrs/decider.js';
import { type CommandMetadata, executeDecider } from '../../../platform/cqrs/execute-decider.js';
import { EVENT_CORE, type EventCore } from '../../../platform/event-core/event-core.js';
import type { Position } from '../../../platform/event-store/event-store.js';
import { inbox } from '../../domain/inbox.decider.js';
import { inboxStream } from '../../domain/notification.events.js';
import { NotificationList } from '../../queries/notification-list/notification-list.js';

/** One notification read (`forced`: confirmed with OK on the announcement overlay). */
export class ReadNotification extends Command<void> {
  constructor(
    readonly userId: string,
    readonly notificationId: string,
    readonly forced: boolean,
    readonly meta: CommandMetadata,
  ) {
    super();
  }
}

export class ReadAllNotifications extends Command<void> {
  constructor(
    readonly userId: string,
    readonly meta: CommandMetadata,
  ) {
    super();
  }
}

/** Someone else's notification, or none: the same 404, so ids cannot be probed. */
const noSuchNotification = () => new DomainError('no-such-notification', 'No such notification', { kind: 'not-found' });

/** Waits for the read model, so the caller's next list and count show what they just did. */
async function settled(core: EventCore, position: Position | undefined) {
  if (position) await core.projections.caughtUpTo(position, 5_000).catch(() => undefined);
}

@CommandHandler(ReadNotification)
export class ReadNotificationHandler implements ICommandHandler<ReadNotification> {
  constructor(
    @Inject(EVENT_CORE) private readonly core: EventCore,
    private readonly list: NotificationList,
  ) {}

  async execute({ userId, notificationId, forced, meta }: ReadNotification) {
    const target = await this.list.target(userId, notificationId);
    if (!target) throw noSuchNotification();
    const { position } = await executeDecider(
      this.core,
      inboxStream(userId),
      inbox,
      { type: forced ? 'ConfirmForced' : 'MarkRead', userId, target },
      meta,
    );
    await settled(this.core, position);
  }
}

@CommandHandler(ReadAllNotifications)
export class ReadAllNotificationsHandler implements ICommandHandler<ReadAllNotifications> {
  constructor(
    @Inject(EVENT_CORE) private readonly core: EventCore,
    private readonly list: NotificationList,
  ) {}

  async execute({ userId, meta }: ReadAllNotifications) {
    // Nothing unread that it would cover: record nothing (a repeated click, or a script, must not grow the stream).
    if (!(await this.list.anyUnreadToMark(userId))) return;
    const { position } = await executeDecider(
      this.core,
      inboxStream(userId),
      inbox,
      { type: 'MarkAllRead', userId },
      meta,
    );
    await settled(this.core, position);
  }
}
