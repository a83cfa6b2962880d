import { Inject, Injectable, Logger, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { sessionEndedDataSchema } from '@serendip/proto';
import { EVENT_CORE, type EventCore } from '../../platform/event-core/event-core.js';
import type { BusSubscription } from '../../platform/messaging/message-bus.js';
import { subscribeToIntegrationEvent } from '../../platform/messaging/integration-event-subscription.js';
import { Realtime, type SessionEnding } from '../../platform/realtime/realtime.js';
import { ACCOUNT_DELETION_REASON } from '../commands/delete-account/delete-account.command.js';
import { ACCOUNT_DELETED, LOGGED_OUT_ELSEWHERE, SESSION_EXPIRED } from '../public/guards.js';

/**
 * A session that ends keeps no open socket (spec 3 "Login session"): every SessionEnded closes that session's sockets
 * on whichever node they are. A durable subscription shared by all nodes: each event is handled once, and one that
 * arrives while every node is down is handled when one is back.
 */
@Injectable()
export class EndSessionSockets implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger(EndSessionSockets.name);
  private subscription: BusSubscription | undefined;

  constructor(
    @Inject(EVENT_CORE) private readonly core: EventCore,
    private readonly realtime: Realtime,
  ) {}

  onApplicationBootstrap() {
    this.subscription = subscribeToIntegrationEvent(
      this.core.bus,
      {
        context: 'identity',
        type: 'SessionEnded',
        schema: sessionEndedDataSchema,
        durable: 'identity-end-session-sockets',
      },
      this.logger,
      ({ userId, sessionId, reason }, eventId) =>
        this.realtime.endSession(userId, sessionId, endingOf(reason), eventId),
    );
  }

  async onApplicationShutdown() {
    await this.subscription?.unsubscribe();
  }
}

/** What the person is told, by why the session ended (SessionEnded's reason). */
function endingOf(reason: string): SessionEnding {
  if (reason === 'logout') return { code: 'logged-out', reason: LOGGED_OUT_ELSEWHERE };
  if (reason === ACCOUNT_DELETION_REASON) return { code: 'account-deleted', reason: ACCOUNT_DELETED };
  return { code: 'expired', reason: SESSION_EXPIRED };
}
