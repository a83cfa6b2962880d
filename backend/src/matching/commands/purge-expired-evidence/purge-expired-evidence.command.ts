import { Inject, Logger } from '@nestjs/common';
import { Command, CommandBus, CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import type { Config } from '../../../config/config.js';
import { CONFIG } from '../../../config/config.token.js';
import { DATABASE, type Db } from '../../../platform/database/database.js';
import { DeleteSnapshot } from '../delete-snapshot/delete-snapshot.command.js';

const DAY_MS = 24 * 60 * 60_000;
const BATCH = 100;

/** Deletes every snapshot older than EVIDENCE_RETENTION_DAYS that no open case holds; answers how many. */
export class PurgeExpiredEvidence extends Command<number> {
  constructor(readonly now = new Date()) {
    super();
  }
}

/**
 * Evidence does not outlive its purpose: past the retention period a snapshot is deleted (SnapshotDeleted, reason
 * 'retention'), unless an open case holds it. Safe to run on every node at once: each deletion is decided once on the
 * call's stream.
 */
@CommandHandler(PurgeExpiredEvidence)
export class PurgeExpiredEvidenceHandler implements ICommandHandler<PurgeExpiredEvidence> {
  private readonly logger = new Logger(PurgeExpiredEvidenceHandler.name);

  constructor(
    @Inject(CONFIG) private readonly config: Config,
    @Inject(DATABASE) private readonly db: Db,
    private readonly commands: CommandBus,
  ) {}

  async execute({ now }: PurgeExpiredEvidence): Promise<number> {
    const cutoff = new Date(now.getTime() - this.config.evidenceRetentionDays * DAY_MS);
    let deleted = 0;
    let after = '';
    for (;;) {
      const due = await this.db
        .selectFrom('evidence_snapshots')
        .select('snapshot_id')
        .where('taken_at', '<', cutoff)
        .where('holds', '=', 0)
        .where('snapshot_id', '>', after)
        .orderBy('snapshot_id')
        .limit(BATCH)
        .execute();
      for (const { snapshot_id } of due) {
        const outcome = await this.commands.execute(new DeleteSnapshot(snapshot_id, 'retention', now));
        if (outcome === 'deleted') deleted++;
      }
      if (due.length < BATCH) break;
      after = due[due.length - 1]!.snapshot_id;
    }
    if (deleted > 0) this.logger.log(`${deleted} snapshot(s) past ${this.config.evidenceRetentionDays} days deleted`);
    return deleted;
  }
}
