import { randomUUID } from 'node:crypto';
import { Inject } from '@nestjs/common';
import { Command, CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { executeDecider } from '../../../platform/cqrs/execute-decider.js';
import { EVENT_CORE, type EventCore } from '../../../platform/event-core/event-core.js';
import { match, type MatchDecision } from '../../domain/match.decider.js';
import { matchStream } from '../../domain/match.events.js';

export class RecordMatchDecision extends Command<void> {
  constructor(
    readonly decision: MatchDecision,
    readonly now = new Date(),
  ) {
    super();
  }
}

/** The matchmaker's decisions, recorded on the call's stream (DESIGN.md "Matching"). */
@CommandHandler(RecordMatchDecision)
export class RecordMatchDecisionHandler implements ICommandHandler<RecordMatchDecision> {
  constructor(@Inject(EVENT_CORE) private readonly core: EventCore) {}

  async execute({ decision, now }: RecordMatchDecision): Promise<void> {
    await executeDecider(this.core, matchStream(decision.matchId), match, decision, {
      // One pairing and one ending per call: a repeat of the same decision appends nothing. A call may move between
      // SFU nodes more than once (A, B, back to A), so each move is its own command; the decider drops a move to
      // the node the call is already on.
      commandId: decision.type === 'Relay' ? randomUUID() : `${decision.type}:${decision.matchId}`,
      correlationId: decision.matchId,
      actor: 'matchmaker',
      now,
    });
  }
}
