import { Inject, Injectable, Logger, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { type NotificationView, notificationSentDataSchema } from '@serendip/proto';
import { EVENT_CORE, type EventCore } from '../../platform/event-core/event-core.js';
import type { BusSubscription } from '../../platform/messaging/message-bus.js';
import { subscribeToIntegrationEvent } from '../../platform/messaging/integration-event-subscription.js';
import { isErased } from '../../platform/personal-data/personal-data-vault.js';
import { Realtime } from '../../platform/realtime/realtime.js';
import { notificationStream, type NotificationSent } from '../domain/notification.events.js';

/**
 * A sent notification reaches its recipient's open pages at once (spec 4 "Notifications": new ones arrive live), on
 * whichever nodes hold them: `newNotification` on the user's subject, or, for everyone, ONE message on the everyone
 * subject that each node hands to its signed-in system sockets (DESIGN.md "Fan-out: NATS"). A durable subscription
 * shared by all nodes, so each is pushed once; the push carries the stored event's id, so a repeat is dropped by the
 * nodes and the clients. Its texts are read from the log (opened), not from NATS, which must not keep personal data.
 */
@Injectable()
export class DeliverNotifications implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger(DeliverNotifications.name);
  private subscription: BusSubscription | undefined;

  constructor(
    @Inject(EVENT_CORE) private readonly core: EventCore,
    private readonly realtime: Realtime,
  ) {}

  onApplicationBootstrap() {
    this.subscription = subscribeToIntegrationEvent(
      this.core.bus,
      {
        context: 'notifications',
        type: 'NotificationSent',
        schema: notificationSentDataSchema,
        durable: 'notifications-deliver',
      },
      this.logger,
      ({ notificationId }, eventId) => this.deliver(notificationId, eventId),
    );
  }

  async onApplicationShutdown() {
    await this.subscription?.unsubscribe();
  }

  private async deliver(notificationId: string, eventId: string) {
    const stored = (await this.core.store.readStream(notificationStream(notificationId))).find(
      (e) => e.type === 'NotificationSent',
    );
    if (!stored) return;
    const sent = stored.data as NotificationSent['data'];
    // The recipient deleted the account meanwhile: there is no one to tell.
    if (isErased(sent.title) || isErased(sent.description)) return;
    const view: NotificationView = {
      _id: sent.notificationId,
      kind: sent.kind,
      title: sent.title,
      description: sent.description,
      ...(typeof sent.adminAnnouncement === 'string' && sent.adminAnnouncement
        ? { AdminAnnouncement: sent.adminAnnouncement }
        : {}),
      forceOpen: sent.forceOpen,
      read: false,
      createdAt: stored.metadata.occurredAt,
      ...(sent.link ? { link: sent.link } : {}),
      ...(sent.details && !isErased(sent.details) ? { details: sent.details } : {}),
    };
    if (sent.recipientId === null) await this.realtime.toEveryone('newNotification', view, eventId);
    else await this.realtime.toUser(sent.recipientId, 'newNotification', view, eventId);
  }
}
