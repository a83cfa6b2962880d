import { Inject, Injectable, Logger, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { appealDecidedDataSchema, banEndedDataSchema, reportActionedDataSchema } from '@serendip/proto';
import { v5 as uuidv5 } from 'uuid';
import { DomainError } from '../../platform/cqrs/decider.js';
import { EVENT_CORE, type EventCore } from '../../platform/event-core/event-core.js';
import type { BusSubscription } from '../../platform/messaging/message-bus.js';
import { subscribeToIntegrationEvent } from '../../platform/messaging/integration-event-subscription.js';
import { NO_SUCH_RECIPIENT, SendNotification } from '../commands/send-notification/send-notification.command.js';
import { OUTCOME_TEXTS, type OutcomeText } from '../domain/outcome-texts.js';

// The notification's id comes from the event that caused it: a redelivered event sends nothing twice.
const SOURCE_ID_NAMESPACE = 'c4a7e2d1-5b3f-4e8a-9c6d-2f1e0b9a8d73';

/**
 * Moderation outcomes people are told of (spec 4 "Notifications"): a report they filed was acted on, their appeal was
 * approved or rejected, their ban ended (expired or lifted; an approved appeal says so itself). Durable subscriptions
 * shared by all nodes: each outcome is told once, also one that happened while every node was down.
 */
@Injectable()
export class NotificationSources implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger(NotificationSources.name);
  private subscriptions: BusSubscription[] = [];

  constructor(
    @Inject(EVENT_CORE) private readonly core: EventCore,
    private readonly commands: CommandBus,
  ) {}

  onApplicationBootstrap() {
    const bus = this.core.bus;
    this.subscriptions = [
      subscribeToIntegrationEvent(
        bus,
        {
          context: 'moderation',
          type: 'ReportActioned',
          schema: reportActionedDataSchema,
          durable: 'notifications-report-actioned',
        },
        this.logger,
        ({ reportId, reporterId }, eventId) =>
          this.tell(reporterId, OUTCOME_TEXTS.reportActioned, eventId, { reportId }),
      ),
      subscribeToIntegrationEvent(
        bus,
        {
          context: 'moderation',
          type: 'AppealDecided',
          schema: appealDecidedDataSchema,
          durable: 'notifications-appeal-decided',
        },
        this.logger,
        ({ userId, caseId, outcome }, eventId) =>
          this.tell(
            userId,
            outcome === 'approved' ? OUTCOME_TEXTS.appealApproved : OUTCOME_TEXTS.appealRejected,
            eventId,
            { caseId },
          ),
      ),
      subscribeToIntegrationEvent(
        bus,
        { context: 'moderation', type: 'BanEnded', schema: banEndedDataSchema, durable: 'notifications-ban-ended' },
        this.logger,
        async ({ userId, caseId, how }, eventId) => {
          // The approved appeal's own notification says the restriction was lifted.
          if (how === 'appeal-approved') return;
          await this.tell(userId, how === 'expired' ? OUTCOME_TEXTS.banExpired : OUTCOME_TEXTS.banLifted, eventId, {
            caseId,
          });
        },
      ),
    ];
  }

  async onApplicationShutdown() {
    await Promise.all(this.subscriptions.map((s) => s.unsubscribe()));
  }

  private async tell(recipientId: string, text: OutcomeText, eventId: string, details: Record<string, string>) {
    const now = new Date();
    try {
      await this.commands.execute(
        new SendNotification(
          {
            notificationId: uuidv5(`${text.kind}:${eventId}`, SOURCE_ID_NAMESPACE),
            recipientId,
            kind: text.kind,
            title: text.title,
            description: text.description,
            forceOpen: false,
            ...(text.link ? { link: text.link } : {}),
            details,
            sentBy: 'system',
          },
          { commandId: eventId, correlationId: eventId, actor: 'system', now },
        ),
      );
    } catch (error) {
      // A deleted account has no one left to tell; anything else is retried by the subscription.
      if (error instanceof DomainError && error.code === NO_SUCH_RECIPIENT) return;
      throw error;
    }
  }
}
