import { Inject, Injectable, Logger, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { accountDeletedDataSchema } from '@serendip/proto';
import { DATABASE, type Db } from '../../platform/database/database.js';
import { EVENT_CORE, type EventCore } from '../../platform/event-core/event-core.js';
import type { BusSubscription } from '../../platform/messaging/message-bus.js';
import { eventSubject } from '../../platform/messaging/subjects.js';
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
    this.subscription = this.core.bus.subscribe(
      eventSubject('identity', 'AccountDeleted'),
      async (message) => {
        const data = accountDeletedDataSchema.safeParse((message.data as { data?: unknown }).data);
        if (!data.success) {
          this.logger.warn('a malformed AccountDeleted was dropped');
          return;
        }
        const snapshots = await this.db
          .selectFrom('evidence_snapshots')
          .select('snapshot_id')
          .where('user_id', '=', data.data.userId)
          .execute();
        for (const { snapshot_id } of snapshots) {
          await this.commands.execute(new DeleteSnapshot(snapshot_id, 'account-deleted'));
        }
      },
      { durable: 'matching-delete-evidence-of-deleted-accounts' },
    );
  }

  async onApplicationShutdown() {
    await this.subscription?.unsubscribe();
  }
}
