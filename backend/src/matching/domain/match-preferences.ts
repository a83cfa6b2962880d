import type { MatchFilters } from '@serendip/proto';
import type { Decider, DomainEvent } from '../../platform/cqrs/decider.js';
import type { EventSchema } from '../../platform/personal-data/event-schemas.js';

/**
 * The preferences an account matches with, remembered on the server so the next visit (on any device) starts from the
 * ready screen, not the wizard. Each event holds the whole set: the latest one is the answer.
 */
export type MatchPreferencesSaved = DomainEvent<'MatchPreferencesSaved', { userId: string; filters: MatchFilters }>;

export type SaveMatchPreferences = { type: 'SaveMatchPreferences'; userId: string; filters: MatchFilters };

export const matchPreferencesStream = (userId: string) => `matching-preferences-${userId}`;

export const matchPreferencesEventSchemas: EventSchema[] = [
  // Whom someone looks for (and their interests) says something about them: sealed, and erased with the account.
  { type: 'MatchPreferencesSaved', schemaVersion: 1, subject: (d) => d.userId as string, personal: ['filters'] },
];

/** Normalised for comparison: the same choice saved twice is one event, not two. */
export const sameFilters = (a: MatchFilters, b: MatchFilters) =>
  a.gender === b.gender &&
  a.country === b.country &&
  a.ageRange[0] === b.ageRange[0] &&
  a.ageRange[1] === b.ageRange[1] &&
  JSON.stringify(a.interests ?? []) === JSON.stringify(b.interests ?? []);

export const matchPreferences: Decider<SaveMatchPreferences, MatchFilters | null, MatchPreferencesSaved> = {
  initialState: null,
  evolve: (_state, event) => event.data.filters,
  decide: (command, state) =>
    state && sameFilters(state, command.filters)
      ? []
      : [{ type: 'MatchPreferencesSaved', data: { userId: command.userId, filters: command.filters } }],
};
