import { Inject } from '@nestjs/common';
import { Command, CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { UserDirectory } from '../../../identity/public/index.js';
import { DomainError } from '../../../platform/cqrs/decider.js';
import { type CommandMetadata, executeDecider } from '../../../platform/cqrs/execute-decider.js';
import { EVENT_CORE, type EventCore } from '../../../platform/event-core/event-core.js';
import { notification } from '../../domain/notification.decider.js';
import { notificationStream, type NotificationSent } from '../../domain/notification.events.js';

export type NewNotification = NotificationSent['data'];

/** Answers the notification's id (the same on a repeat, which sends nothing). */
export class SendNotification extends Command<{ notificationId: string }> {
  constructor(
    readonly notification: NewNotification,
    readonly meta: CommandMetadata,
  ) {
    super();
  }
}

/** No live account has that id (never was, or deleted): nobody to tell. */
export const NO_SUCH_RECIPIENT = 'no-such-recipient';

/**
 * Sends one notification (spec 3 Notification): to one live account, or to everyone as ONE event. Delivery to the
 * open sockets follows from the stored event (DeliverNotifications), on whichever node holds them.
 */
@CommandHandler(SendNotification)
export class SendNotificationHandler implements ICommandHandler<SendNotification> {
  constructor(
    @Inject(EVENT_CORE) private readonly core: EventCore,
    private readonly users: UserDirectory,
  ) {}

  async execute({ notification: sent, meta }: SendNotification) {
    if (sent.recipientId !== null && !(await this.users.registeredAt(sent.recipientId))) {
      throw new DomainError(NO_SUCH_RECIPIENT, 'No such user', { kind: 'invalid', field: 'userId' });
    }
    const { position } = await executeDecider(
      this.core,
      notificationStream(sent.notificationId),
      notification,
      { type: 'SendNotification', notification: sent },
      meta,
    );
    // The sender's next read (an admin's list, a test) sees it.
    if (position) await this.core.projections.caughtUpTo(position, 5_000).catch(() => undefined);
    return { notificationId: sent.notificationId };
  }
}
