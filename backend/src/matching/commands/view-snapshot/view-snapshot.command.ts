import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { Inject, Logger } from '@nestjs/common';
import { Command, CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import type { Config } from '../../../config/config.js';
import { CONFIG } from '../../../config/config.token.js';
import { DomainError } from '../../../platform/cqrs/decider.js';
import { type CommandMetadata, executeDecider } from '../../../platform/cqrs/execute-decider.js';
import { DATABASE, type Db } from '../../../platform/database/database.js';
import { EVENT_CORE, type EventCore } from '../../../platform/event-core/event-core.js';
import { match } from '../../domain/match.decider.js';
import { matchStream } from '../../domain/match.events.js';
import { evidencePath } from '../take-snapshot/evidence-files.js';

/** The JPEG of a snapshot, shown to `meta.actor`; a DomainError says why not. */
export class ViewSnapshot extends Command<Buffer> {
  constructor(
    readonly snapshotId: string,
    readonly meta: CommandMetadata,
  ) {
    super();
  }
}

const NO_SNAPSHOT = () => new DomainError('snapshot-not-found', 'No such snapshot', { kind: 'not-found' });

/**
 * Looking at evidence is on record, as the reports it serves are (DESIGN.md "The write side"): the bytes are hashed
 * and checked against the SHA-256 the log recorded when the snapshot was taken, and only bytes that match are shown,
 * after SnapshotViewed (who, when, which) is stored. A mismatch is logged, never served.
 */
@CommandHandler(ViewSnapshot)
export class ViewSnapshotHandler implements ICommandHandler<ViewSnapshot> {
  private readonly logger = new Logger(ViewSnapshotHandler.name);

  constructor(
    @Inject(CONFIG) private readonly config: Config,
    @Inject(DATABASE) private readonly db: Db,
    @Inject(EVENT_CORE) private readonly core: EventCore,
  ) {}

  async execute({ snapshotId, meta }: ViewSnapshot): Promise<Buffer> {
    const row = await this.db
      .selectFrom('evidence_snapshots')
      .select(['match_id', 'file'])
      .where('snapshot_id', '=', snapshotId)
      .executeTakeFirst();
    if (!row) throw NO_SNAPSHOT();
    let jpeg: Buffer;
    try {
      jpeg = await readFile(evidencePath(this.config.dataDir, row.file));
    } catch (error) {
      this.logger.error(`snapshot ${snapshotId} is on record but its file cannot be read: ${(error as Error).message}`);
      throw NO_SNAPSHOT();
    }
    const sha256 = createHash('sha256').update(jpeg).digest('hex');
    try {
      await executeDecider(
        this.core,
        matchStream(row.match_id),
        match,
        { type: 'ViewSnapshot', matchId: row.match_id, snapshotId, viewedBy: meta.actor, sha256 },
        meta,
      );
    } catch (error) {
      if (error instanceof DomainError && error.code === 'evidence-mismatch') {
        this.logger.error(
          `snapshot ${snapshotId}: its file no longer matches the SHA-256 recorded when it was taken ` +
            `(now ${sha256}); not shown to ${meta.actor}`,
        );
      }
      throw error;
    }
    return jpeg;
  }
}
