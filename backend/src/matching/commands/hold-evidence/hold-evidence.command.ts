import { Inject } from '@nestjs/common';
import { Command, CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { DomainError } from '../../../platform/cqrs/decider.js';
import { executeDecider } from '../../../platform/cqrs/execute-decider.js';
import { DATABASE, type Db } from '../../../platform/database/database.js';
import { EVENT_CORE, type EventCore } from '../../../platform/event-core/event-core.js';
import { match } from '../../domain/match.decider.js';
import { matchStream } from '../../domain/match.events.js';

/**
 * An open case (`caseId`) keeps a snapshot: it outlives its retention and its subject's account deletion until the
 * case lets go (ReleaseEvidence). Moderation holds a report's evidence when it opens the case.
 */
export class HoldEvidence extends Command<void> {
  constructor(
    readonly snapshotId: string,
    readonly caseId: string,
    readonly actor: string,
    readonly now = new Date(),
  ) {
    super();
  }
}

/** The case is closed: it no longer keeps the snapshot, which retention may then delete. */
export class ReleaseEvidence extends Command<void> {
  constructor(
    readonly snapshotId: string,
    readonly caseId: string,
    readonly actor: string,
    readonly now = new Date(),
  ) {
    super();
  }
}

@CommandHandler(HoldEvidence)
export class HoldEvidenceHandler implements ICommandHandler<HoldEvidence> {
  constructor(
    @Inject(DATABASE) private readonly db: Db,
    @Inject(EVENT_CORE) private readonly core: EventCore,
  ) {}

  async execute({ snapshotId, caseId, actor, now }: HoldEvidence): Promise<void> {
    await holdOrRelease(this.db, this.core, 'HoldSnapshot', snapshotId, caseId, actor, now);
  }
}

@CommandHandler(ReleaseEvidence)
export class ReleaseEvidenceHandler implements ICommandHandler<ReleaseEvidence> {
  constructor(
    @Inject(DATABASE) private readonly db: Db,
    @Inject(EVENT_CORE) private readonly core: EventCore,
  ) {}

  async execute({ snapshotId, caseId, actor, now }: ReleaseEvidence): Promise<void> {
    await holdOrRelease(this.db, this.core, 'ReleaseSnapshot', snapshotId, caseId, actor, now);
  }
}

async function holdOrRelease(
  db: Db,
  core: EventCore,
  type: 'HoldSnapshot' | 'ReleaseSnapshot',
  snapshotId: string,
  caseId: string,
  actor: string,
  now: Date,
): Promise<void> {
  const row = await db
    .selectFrom('evidence_snapshots')
    .select('match_id')
    .where('snapshot_id', '=', snapshotId)
    .executeTakeFirst();
  if (!row) throw new DomainError('snapshot-not-found', 'No such snapshot', { kind: 'not-found' });
  const { position } = await executeDecider(
    core,
    matchStream(row.match_id),
    match,
    { type, matchId: row.match_id, snapshotId, caseId },
    // Holding twice for one case is one hold; a hold after a release is a new one.
    { commandId: `${type}:${snapshotId}:${caseId}:${now.getTime()}`, correlationId: caseId, actor, now },
  );
  // Retention and account deletion read the holds from the read model: they must see this one at once.
  if (position) await core.projections.caughtUpTo(position, 5_000);
}
