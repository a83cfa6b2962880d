import type { IntegrationEvent } from './integration-event.js';

/** Two users were paired (matching context). Ids only: profiles stay with identity. */
export type MatchPairedEvent = IntegrationEvent<'MatchPaired', { matchId: string; userIds: [string, string] }>;
/** A call ended: who ended it (null when nobody did, e.g. a lost connection) and why. */
export type MatchEndedEvent = IntegrationEvent<
  'MatchEnded',
  { matchId: string; endedBy: string | null; reason: 'skip' | 'leave' | 'disconnect' | 'timeout' | 'ban' }
>;
export type MatchingIntegrationEvent = MatchPairedEvent | MatchEndedEvent;
