import { createHash, randomUUID } from 'node:crypto';
import path from 'node:path';
import { Inject, Logger } from '@nestjs/common';
import { Command, CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { sql } from 'kysely';
import type { Config } from '../../../config/config.js';
import { CONFIG } from '../../../config/config.token.js';
import { DomainError } from '../../../platform/cqrs/decider.js';
import { executeDecider } from '../../../platform/cqrs/execute-decider.js';
import { writeWholeFile } from '../../../platform/files/whole-file.js';
import { DATABASE, type Db } from '../../../platform/database/database.js';
import { EVENT_CORE, type EventCore } from '../../../platform/event-core/event-core.js';
import { match } from '../../domain/match.decider.js';
import { matchStream, type SnapshotTaken } from '../../domain/match.events.js';
import { SfuClient, SfuError } from '../../media/sfu-client.js';
import { EVIDENCE_DIR, removeEvidenceFile } from './evidence-files.js';

/** How long the answer waits for the evidence read models, so the snapshot can be viewed or held at once. */
const READ_YOUR_WRITE_MS = 5_000;

export type SnapshotRecord = Omit<SnapshotTaken['data'], 'file'>;

/**
 * A frame of `userId`'s video in their relayed call now, for a report (`reportId`) or a reason the admin states; a
 * DomainError says why not. `why.matchId` takes it in that call only (a report's): the reported side may have moved on
 * to someone else since, who is no part of it.
 */
export class TakeSnapshot extends Command<SnapshotRecord> {
  constructor(
    readonly userId: string,
    readonly requestedBy: string,
    readonly why: { reason?: string | null; reportId?: string | null; matchId?: string },
    readonly now = new Date(),
  ) {
    super();
  }
}

/**
 * Server-side snapshots (DESIGN.md "Shape"): a frame of a user's video taken by the SFU itself, so a report's evidence
 * does not rest on what the reporter sends. The JPEG is kept under DATA_DIR/evidence (owner-only), the log records
 * its SHA-256, the call, who asked, why and when. A reportId is taken as given: moderation, which files the reports,
 * takes a report's snapshot itself (through matching's public/), naming the report's call; the admin route always
 * needs a stated reason besides.
 */
@CommandHandler(TakeSnapshot)
export class TakeSnapshotHandler implements ICommandHandler<TakeSnapshot> {
  private readonly logger = new Logger(TakeSnapshotHandler.name);

  constructor(
    @Inject(CONFIG) private readonly config: Config,
    @Inject(DATABASE) private readonly db: Db,
    @Inject(EVENT_CORE) private readonly core: EventCore,
    private readonly sfu: SfuClient,
  ) {}

  async execute({ userId, requestedBy, why, now }: TakeSnapshot): Promise<SnapshotRecord> {
    const reason = why.reason?.trim() || null;
    const reportId = why.reportId ?? null;
    // Asked before the SFU is: no frame of anyone is taken without a why (the decider says so again).
    if (!reason && !reportId)
      throw new DomainError('snapshot-reason-required', 'A snapshot needs a report or a stated reason', {
        field: 'reason',
      });
    const call = await this.db
      .selectFrom('matches')
      .select(['match_id', 'sfu_node'])
      .where((w) => w.or([w('user_a', '=', userId), w('user_b', '=', userId)]))
      .where('ended_at', 'is', null)
      .where('sfu_node', 'is not', null)
      .$if(why.matchId !== undefined, (q) => q.where('match_id', '=', why.matchId!))
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
    const file = `${snapshotId}.jpg`;
    await writeWholeFile(path.join(this.config.dataDir, EVIDENCE_DIR, file), jpeg);
    const record: SnapshotRecord = {
      matchId: call.match_id,
      snapshotId,
      userId,
      requestedBy,
      reason,
      reportId,
      sha256,
      width: shot.width,
      height: shot.height,
      bytes: jpeg.length,
      takenAt: shot.takenAt,
    };
    let position;
    try {
      ({ position } = await executeDecider(
        { store: this.core.store, schemas: this.core.schemas },
        matchStream(call.match_id),
        match,
        { type: 'RecordSnapshot', ...record, file },
        { commandId: `RecordSnapshot:${snapshotId}`, correlationId: call.match_id, actor: requestedBy, now },
      ));
    } catch (error) {
      // Not on record, so nothing would ever delete it: a picture of someone kept for no recorded reason.
      await removeEvidenceFile(this.config.dataDir, file);
      throw error;
    }
    if (position) {
      await this.core.projections
        .caughtUpTo(position, READ_YOUR_WRITE_MS)
        .catch(() => this.logger.warn(`snapshot ${snapshotId} is recorded; the read models have not caught up yet`));
    }
    return record;
  }
}
