import { Inject, Injectable, Logger, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { accountDeletedDataSchema } from '@serendip/proto';
import { DATABASE, type Db } from '../../platform/database/database.js';
import { EVENT_CORE, type EventCore } from '../../platform/event-core/event-core.js';
import type { BusSubscription } from '../../platform/messaging/message-bus.js';
import { subscribeToIntegrationEvent } from '../../platform/messaging/integration-event-subscription.js';

/**
 * A deleted account takes its notifications and read state from the read models (DESIGN.md "Personal data"); the
 * log's copies of what was said to them are sealed under the key identity destroys. Announcements to everyone stay.
 */
@Injectable()
export class ForgetDeletedInboxes implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger(ForgetDeletedInboxes.name);
  private subscription: BusSubscription | undefined;

  constructor(
    @Inject(EVENT_CORE) private readonly core: EventCore,
    @Inject(DATABASE) private readonly db: Db,
  ) {}

  onApplicationBootstrap() {
    this.subscription = subscribeToIntegrationEvent(
      this.core.bus,
      {
        context: 'identity',
        type: 'AccountDeleted',
        schema: accountDeletedDataSchema,
        durable: 'notifications-forget-deleted-accounts',
      },
      this.logger,
      async ({ userId }) => {
        await this.db.transaction().execute(async (trx) => {
          await trx.deleteFrom('notifications').where('recipient_id', '=', userId).execute();
          await trx.deleteFrom('notification_reads').where('user_id', '=', userId).execute();
          await trx.deleteFrom('notification_read_marks').where('user_id', '=', userId).execute();
        });
      },
    );
  }

  async onApplicationShutdown() {
    await this.subscription?.unsubscribe();
  }
}
