import { Inject } from '@nestjs/common';
import { type IQueryHandler, Query, QueryHandler } from '@nestjs/cqrs';
import { type MatchFilters, matchFiltersSchema } from '@serendip/proto';
import { EVENT_CORE, type EventCore } from '../../../platform/event-core/event-core.js';
import { matchPreferencesStream } from '../../domain/match-preferences.js';

/** The account's saved preferences, or null before its first 'Start Matching' (or once erased). */
export class GetMatchPreferences extends Query<MatchFilters | null> {
  constructor(readonly userId: string) {
    super();
  }
}

@QueryHandler(GetMatchPreferences)
export class GetMatchPreferencesHandler implements IQueryHandler<GetMatchPreferences> {
  constructor(@Inject(EVENT_CORE) private readonly core: EventCore) {}

  async execute({ userId }: GetMatchPreferences): Promise<MatchFilters | null> {
    // Each event holds the whole set, so the newest one is the answer: no read model to keep for it.
    const [latest] = await this.core.store.readStream(matchPreferencesStream(userId), {
      direction: 'backwards',
      maxCount: 1,
    });
    // Erased with the account (the sealed field reads as a marker) or written by an older rule: as if never saved.
    const parsed = matchFiltersSchema.safeParse((latest?.data as { filters?: unknown } | undefined)?.filters);
    return parsed.success ? parsed.data : null;
  }
}
