import { Inject } from '@nestjs/common';
import { Command, CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { type CommandMetadata, executeDecider } from '../../../platform/cqrs/execute-decider.js';
import { EVENT_CORE, type EventCore } from '../../../platform/event-core/event-core.js';
import { match } from '../../domain/match.decider.js';
import { matchStream } from '../../domain/match.events.js';

export class GiveFeedback extends Command<void> {
  constructor(
    readonly matchId: string,
    readonly userId: string,
    readonly rating: number,
    readonly additionalInformation: string,
    readonly meta: CommandMetadata,
  ) {
    super();
  }
}

/** spec 2 "Post-call feedback card": one per user per call, from its two users only (the decider's rules). */
@CommandHandler(GiveFeedback)
export class GiveFeedbackHandler implements ICommandHandler<GiveFeedback> {
  constructor(@Inject(EVENT_CORE) private readonly core: EventCore) {}

  async execute({ matchId, userId, rating, additionalInformation, meta }: GiveFeedback): Promise<void> {
    await executeDecider(
      this.core,
      matchStream(matchId),
      match,
      { type: 'GiveFeedback', matchId, userId, rating, additionalInformation },
      meta,
    );
  }
}
