import { Inject, Injectable, Logger, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { accountDeletedDataSchema } from '@serendip/proto';
import { DATABASE, type Db } from '../../platform/database/database.js';
import { EVENT_CORE, type EventCore } from '../../platform/event-core/event-core.js';
import type { BusSubscription } from '../../platform/messaging/message-bus.js';
import { subscribeToIntegrationEvent } from '../../platform/messaging/integration-event-subscription.js';
import { DeleteSnapshot } from '../commands/delete-snapshot/delete-snapshot.command.js';

/**
 * A deleted account takes the snapshots showing that person with it (DESIGN.md "The write side": once the account is
 * deleted "the person is gone"), unless an open case holds one: that one stays until the case lets go and retention
 * deletes it. A durable subscription shared by all nodes: each deletion is handled once, also one that happened
 * while every node was down.
 */
@Injectable()
export class DeleteEvidenceOfDeletedAccounts implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger(DeleteEvidenceOfDeletedAccounts.name);
  private subscription: BusSubscription | undefined;

  constructor(
    @Inject(EVENT_CORE) private readonly core: EventCore,
    @Inject(DATABASE) private readonly db: Db,
    private readonly commands: CommandBus,
  ) {}

  onApplicationBootstrap() {
    this.subscription = subscribeToIntegrationEvent(
      this.core.bus,
      {
        context: 'identity',
        type: 'AccountDeleted',
        schema: accountDeletedDataSchema,
        durable: 'matching-delete-evidence-of-deleted-accounts',
      },
      this.logger,
      async ({ userId }) => {
        const snapshots = await this.db
          .selectFrom('evidence_snapshots')
          .select('snapshot_id')
          .where('user_id', '=', userId)
          .execute();
        for (const { snapshot_id } of snapshots) {
          await this.commands.execute(new DeleteSnapshot(snapshot_id, 'account-deleted'));
        }
      },
    );
  }

  async onApplicationShutdown() {
    await this.subscription?.unsubscribe();
  }
}
