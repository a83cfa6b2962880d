import { sql } from 'kysely';
import type { RecordedEvent } from '../../platform/event-store/event-store.js';
import type { Projection } from '../../platform/projections/projection.js';
import type { PairSeparated } from '../domain/match.events.js';

/**
 * matching's `matching_separated_pairs`: the pairs a report keeps apart for good, as the matchmaker loads them when it
 * starts leading. One row per pair whatever the order of its ids: the first report to separate them names it.
 */
export const separationsProjection: Projection = {
  name: 'matching.separated-pairs',

  canHandle: (event) => event.type === 'PairSeparated',

  async apply(trx, recorded: RecordedEvent) {
    const { matchId, userIds, reportId } = (recorded as unknown as PairSeparated).data;
    const [userA, userB] = [...userIds].sort();
    await trx
      .insertInto('matching_separated_pairs')
      .values({
        user_a: userA!,
        user_b: userB!,
        match_id: matchId,
        report_id: reportId,
        separated_at: recorded.metadata.occurredAt,
      })
      .onConflict((c) => c.columns(['user_a', 'user_b']).doNothing())
      .execute();
  },

  async reset(trx) {
    await sql`truncate matching_separated_pairs`.execute(trx);
  },
};
