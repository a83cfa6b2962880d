import { Inject, Injectable, Logger, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { accessChangedDataSchema } from '@serendip/proto';
import { EVENT_CORE, type EventCore } from '../../platform/event-core/event-core.js';
import type { BusSubscription } from '../../platform/messaging/message-bus.js';
import { subscribeToIntegrationEvent } from '../../platform/messaging/integration-event-subscription.js';
import { Realtime } from '../../platform/realtime/realtime.js';
import { accountStream } from '../domain/account.events.js';

/** How long the push waits for the users read model, which the sockets read the new access from. */
const READ_MODEL_WAIT_MS = 5_000;

/**
 * A role given or taken, or two-factor login turned on or off, takes effect on the person's open screens at once
 * (spec 6 Admin): every system socket of theirs, on any node, reads its access again and takes or drops the staff
 * pushes, then tells its client (accountUpdated) to read user info again (the dashboard link and guard follow). A durable
 * subscription shared by all nodes, as for ended sessions: each change is handled once, also after an outage.
 */
@Injectable()
export class RefreshSocketAccess implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger(RefreshSocketAccess.name);
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
        type: 'AccessChanged',
        schema: accessChangedDataSchema,
        durable: 'identity-refresh-socket-access',
      },
      this.logger,
      async ({ userId }, eventId) => {
        await this.readModelHasIt(userId);
        await this.realtime.refreshAccess(userId, `access-${eventId}`);
      },
    );
  }

  async onApplicationShutdown() {
    await this.subscription?.unsubscribe();
  }

  /**
   * The outbox publishes without waiting for the read models: wait until they hold the account's latest event (this
   * one or later), so a socket that reads its access reads the new role. Late, it goes on: the sockets read what there
   * is, and the next change of the account refreshes them again.
   */
  private async readModelHasIt(userId: string): Promise<void> {
    try {
      const [latest] = await this.core.store.readStream(accountStream(userId), { direction: 'backwards', maxCount: 1 });
      if (latest) await this.core.projections.caughtUpTo(latest.position, READ_MODEL_WAIT_MS);
    } catch (error) {
      this.logger.warn(`account access pushed before the read model had it: ${(error as Error).message}`);
    }
  }
}
