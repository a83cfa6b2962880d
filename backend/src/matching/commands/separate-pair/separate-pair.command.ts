import { Inject, Logger } from '@nestjs/common';
import { Command, CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { executeDecider } from '../../../platform/cqrs/execute-decider.js';
import { EVENT_CORE, type EventCore } from '../../../platform/event-core/event-core.js';
import { match } from '../../domain/match.decider.js';
import { matchStream } from '../../domain/match.events.js';

/** How long the answer waits for the read model the matchmaker loads separations from. */
const READ_YOUR_WRITE_MS = 5_000;

/** What a filed report says of its call: the same fields as moderation's ReportFiled. */
export interface Separation {
  reportId: string;
  matchId: string;
  reporterId: string;
  reportedId: string;
}

/**
 * The two of a reported call are never paired again, either way round (DESIGN.md "Matching"). Idempotent: a repeat,
 * or the other side's report of the same call, changes nothing. A DomainError 'match-not-found' when the call is
 * unknown or the report does not name its two users.
 */
export class SeparatePair extends Command<void> {
  constructor(
    readonly separation: Separation,
    readonly now = new Date(),
  ) {
    super();
  }
}

/**
 * Recorded on the call's stream; the leading matchmaker learns it at once (evt.matching.PairSeparated) and every later
 * leader from the read model. Moderation may run this as it files a report; matching also runs it for every
 * ReportFiled it hears (integration/separate-reported-pairs.ts), the durable way.
 */
@CommandHandler(SeparatePair)
export class SeparatePairHandler implements ICommandHandler<SeparatePair> {
  private readonly logger = new Logger(SeparatePairHandler.name);

  constructor(@Inject(EVENT_CORE) private readonly core: EventCore) {}

  async execute({ separation, now }: SeparatePair): Promise<void> {
    const { matchId, reportId, reporterId, reportedId } = separation;
    const { position } = await executeDecider(
      this.core,
      matchStream(matchId),
      match,
      { type: 'Separate', matchId, reportId, reporterId, reportedId },
      { commandId: `Separate:${matchId}:${reportId}`, correlationId: reportId, actor: reporterId, now },
    );
    // A matchmaker that starts leading next reads the read model: it must hold this separation by then.
    if (position) {
      await this.core.projections
        .caughtUpTo(position, READ_YOUR_WRITE_MS)
        .catch(() => this.logger.warn(`call ${matchId}: separation recorded; the read models have not caught up yet`));
    }
  }
}
