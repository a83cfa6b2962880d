import { Inject, Injectable } from '@nestjs/common';
import type { PenaltySuggestionView, ViolationLevel } from '@serendip/proto';
import { EVENT_CORE, type EventCore } from '../../../platform/event-core/event-core.js';
import { suggestPenalty } from '../../domain/penalty-policy.js';
import { standing } from '../../domain/standing.decider.js';
import { type StandingEvent, standingStream } from '../../domain/standing.events.js';

/** What the penalty policy suggests for a new violation of a user's (spec 9 tiers), from their standing's stream. */
@Injectable()
export class PenaltySuggestions {
  constructor(@Inject(EVENT_CORE) private readonly core: EventCore) {}

  async for(userId: string, level: ViolationLevel, now: Date): Promise<PenaltySuggestionView> {
    const history = (await this.core.store.readStream(standingStream(userId))).map(
      (e) => ({ type: e.type, data: e.data }) as StandingEvent,
    );
    const state = history.reduce(standing.evolve, standing.initialState);
    const { kind, tier, explanation, ...rest } = suggestPenalty(state.record, level, now);
    return { kind, tier, explanation, ...('days' in rest ? { days: rest.days } : {}) };
  }
}
