import { createHash, randomUUID } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { Inject } from '@nestjs/common';
import { Command, CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { sql } from 'kysely';
import type { Config } from '../../../config/config.js';
import { CONFIG } from '../../../config/config.token.js';
import { DomainError } from '../../../platform/cqrs/decider.js';
import { executeDecider } from '../../../platform/cqrs/execute-decider.js';
import { DATABASE, type Db } from '../../../platform/database/database.js';
import { EVENT_CORE, type EventCore } from '../../../platform/event-core/event-core.js';
import { match } from '../../domain/match.decider.js';
import { matchStream, type SnapshotTaken } from '../../domain/match.events.js';
import { SfuClient, SfuError } from '../../media/sfu-client.js';
import { EVIDENCE_DIR } from '../../queries/snapshot/read-snapshot.query.js';

export type SnapshotRecord = Omit<SnapshotTaken['data'], 'file'>;

/** A frame of `userId`'s video in their relayed call now; a DomainError says why not. */
export class TakeSnapshot extends Command<SnapshotRecord> {
  constructor(
    readonly userId: string,
    readonly requestedBy: string,
    readonly now = new Date(),
  ) {
    super();
  }
}

/**
 * Server-side snapshots (DESIGN.md "Shape"): a frame of a user's video taken by the SFU itself, so a report's evidence
 * does not rest on what the reporter sends. The JPEG is kept under DATA_DIR/evidence (owner-only), the log records
 * its SHA-256, the call, who asked and when.
 */
@CommandHandler(TakeSnapshot)
export class TakeSnapshotHandler implements ICommandHandler<TakeSnapshot> {
  constructor(
    @Inject(CONFIG) private readonly config: Config,
    @Inject(DATABASE) private readonly db: Db,
    @Inject(EVENT_CORE) private readonly core: EventCore,
    private readonly sfu: SfuClient,
  ) {}

  async execute({ userId, requestedBy, now }: TakeSnapshot): Promise<SnapshotRecord> {
    const call = await this.db
      .selectFrom('matches')
      .select(['match_id', 'sfu_node'])
      .where((w) => w.or([w('user_a', '=', userId), w('user_b', '=', userId)]))
      .where('ended_at', 'is', null)
      .where('sfu_node', 'is not', null)
      .orderBy(sql`paired_at`, 'desc')
      .executeTakeFirst();
    if (!call?.sfu_node) throw new DomainError('not-relayed', 'That user is not in a relayed call.');
    let shot;
    try {
      shot = await this.sfu.send(call.sfu_node, { type: 'snapshot', roomId: call.match_id, peerId: userId });
    } catch (error) {
      if (error instanceof SfuError && (error.code === 'unavailable' || error.code === 'failed')) {
        throw new DomainError(`snapshot-${error.code}`, error.message, { kind: 'unavailable' });
      }
      if (error instanceof SfuError) throw new DomainError(`snapshot-${error.code}`, error.message);
      throw error;
    }
    const jpeg = Buffer.from(shot.jpeg, 'base64');
    const sha256 = createHash('sha256').update(jpeg).digest('hex');
    // The SFU's hash must be the bytes' own: evidence that changed on the way is no evidence.
    if (sha256 !== shot.sha256) throw new DomainError('snapshot-corrupt', 'The snapshot arrived damaged; try again.');
    const snapshotId = randomUUID();
    const dir = path.join(this.config.dataDir, EVIDENCE_DIR);
    await mkdir(dir, { recursive: true, mode: 0o700 });
    const file = `${snapshotId}.jpg`;
    await writeFile(path.join(dir, file), jpeg, { mode: 0o600 });
    const record: SnapshotRecord = {
      matchId: call.match_id,
      snapshotId,
      userId,
      requestedBy,
      sha256,
      width: shot.width,
      height: shot.height,
      bytes: jpeg.length,
      takenAt: shot.takenAt,
    };
    await executeDecider(
      { store: this.core.store, schemas: this.core.schemas },
      matchStream(call.match_id),
      match,
      { type: 'RecordSnapshot', ...record, file },
      { commandId: `RecordSnapshot:${snapshotId}`, correlationId: call.match_id, actor: requestedBy, now },
    );
    return record;
  }
}
