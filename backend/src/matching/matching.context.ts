import { aggregateKind, type BoundedContext } from '../platform/event-core/bounded-context.js';
import { matchPreferencesEventSchemas } from './domain/match-preferences.js';
import { matchEventSchemas } from './domain/match.events.js';
import { matchingIntegrationEvents } from './integration/matching.integration-events.js';
import { evidenceProjection } from './projections/evidence.projection.js';
import { matchesProjection } from './projections/matches.projection.js';
import { separationsProjection } from './projections/separations.projection.js';
import { match } from './domain/match.decider.js';
import { matchStream } from './domain/match.events.js';
import { matchPreferences, matchPreferencesStream } from './domain/match-preferences.js';

/** Matching: the waiting queue, calls between two strangers, and their feedback (spec 2 "Video match", 4, 7). */
export const matchingContext: BoundedContext = {
  name: 'matching',
  eventSchemas: [...matchEventSchemas, ...matchPreferencesEventSchemas],
  projections: [matchesProjection, evidenceProjection, separationsProjection],
  integrationEvents: matchingIntegrationEvents,
  aggregates: [aggregateKind(matchStream(''), match), aggregateKind(matchPreferencesStream(''), matchPreferences)],
};
