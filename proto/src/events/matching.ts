import { z } from 'zod/mini';
import type { IntegrationEvent } from './integration-event.js';

/** Two users were paired (matching context). Ids only: profiles stay with identity. */
export type MatchPairedEvent = IntegrationEvent<'MatchPaired', { matchId: string; userIds: [string, string] }>;
/** A call ended: who ended it (null when nobody did, e.g. a lost connection) and why. */
export type MatchEndedEvent = IntegrationEvent<
  'MatchEnded',
  { matchId: string; endedBy: string | null; reason: 'skip' | 'leave' | 'disconnect' | 'timeout' | 'ban' }
>;
/**
 * A report keeps two users apart for good (matching context): the leading matchmaker never pairs them again. The
 * reporter first; ids only.
 */
export const pairSeparatedDataSchema = z.object({
  matchId: z.string().check(z.minLength(1)),
  userIds: z.tuple([z.string().check(z.minLength(1)), z.string().check(z.minLength(1))]),
  reportId: z.string().check(z.minLength(1)),
});
export type PairSeparatedEvent = IntegrationEvent<'PairSeparated', z.infer<typeof pairSeparatedDataSchema>>;
export type MatchingIntegrationEvent = MatchPairedEvent | MatchEndedEvent | PairSeparatedEvent;
