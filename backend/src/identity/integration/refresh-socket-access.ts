import { Inject, Injectable, Logger, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { accessChangedDataSchema } from '@serendip/proto';
import { EVENT_CORE, type EventCore } from '../../platform/event-core/event-core.js';
import type { BusSubscription } from '../../platform/messaging/message-bus.js';
import { eventSubject } from '../../platform/messaging/subjects.js';
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
    this.subscription = this.core.bus.subscribe(
      eventSubject('identity', 'AccessChanged'),
      async (message) => {
        const event = message.data as { id?: unknown; data?: unknown };
        const data = accessChangedDataSchema.safeParse(event.data);
        if (!data.success || typeof event.id !== 'string') {
          this.logger.warn('a malformed AccessChanged was dropped');
          return;
        }
        const { userId } = data.data;
        await this.readModelHasIt(userId);
        await this.realtime.refreshAccess(userId, `access-${event.id}`);
      },
      { durable: 'identity-refresh-socket-access' },
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
