import { Inject, Logger } from '@nestjs/common';
import { Command, CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import type { Config } from '../../../config/config.js';
import { CONFIG } from '../../../config/config.token.js';
import { DomainError } from '../../../platform/cqrs/decider.js';
import { executeDecider } from '../../../platform/cqrs/execute-decider.js';
import { DATABASE, type Db } from '../../../platform/database/database.js';
import { EVENT_CORE, type EventCore } from '../../../platform/event-core/event-core.js';
import { match } from '../../domain/match.decider.js';
import { matchStream, type SnapshotDeletionReason } from '../../domain/match.events.js';
import { removeEvidenceFile } from '../take-snapshot/evidence-files.js';

export type SnapshotDeletion = 'deleted' | 'held' | 'gone';

/**
 * Deletes a snapshot's JPEG for `reason`, unless an open case holds it ('held'); 'gone' when there was none (any
 * more). The server's own act (actor 'system'): retention and account deletion.
 */
export class DeleteSnapshot extends Command<SnapshotDeletion> {
  constructor(
    readonly snapshotId: string,
    readonly reason: SnapshotDeletionReason,
    readonly now = new Date(),
  ) {
    super();
  }
}

/** SnapshotDeleted is stored first and the file removed after, so a hold that came first is never overruled. */
@CommandHandler(DeleteSnapshot)
export class DeleteSnapshotHandler implements ICommandHandler<DeleteSnapshot> {
  private readonly logger = new Logger(DeleteSnapshotHandler.name);

  constructor(
    @Inject(CONFIG) private readonly config: Config,
    @Inject(DATABASE) private readonly db: Db,
    @Inject(EVENT_CORE) private readonly core: EventCore,
  ) {}

  async execute({ snapshotId, reason, now }: DeleteSnapshot): Promise<SnapshotDeletion> {
    const row = await this.db
      .selectFrom('evidence_snapshots')
      .select(['match_id', 'file'])
      .where('snapshot_id', '=', snapshotId)
      .executeTakeFirst();
    if (!row) return 'gone';
    try {
      await executeDecider(
        this.core,
        matchStream(row.match_id),
        match,
        { type: 'DeleteSnapshot', matchId: row.match_id, snapshotId, reason },
        // Once per snapshot: a repeat (another node, a retry) finds it done and only removes the file again.
        { commandId: `DeleteSnapshot:${snapshotId}`, correlationId: row.match_id, actor: 'system', now },
      );
    } catch (error) {
      if (error instanceof DomainError && error.code === 'evidence-held') return 'held';
      throw error;
    }
    try {
      await removeEvidenceFile(this.config.dataDir, row.file);
    } catch (error) {
      // Recorded as deleted, so nothing will try again: an operator must remove it.
      this.logger.error(`snapshot ${snapshotId} is deleted but its file was not removed: ${(error as Error).message}`);
    }
    return 'deleted';
  }
}
