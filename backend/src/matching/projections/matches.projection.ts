import { sql } from 'kysely';
import type { RecordedEvent } from '../../platform/event-store/event-store.js';
import type { Projection } from '../../platform/projections/projection.js';
import type { MatchEvent } from '../domain/match.events.js';

const HANDLED = new Set<string>(['MatchPaired', 'MatchEnded', 'MatchRelayed', 'FeedbackGiven']);

/** matching's read models: `matches` (one row per call) and `match_feedback` (ratings). */
export const matchesProjection: Projection = {
  name: 'matching.matches',

  canHandle: (event) => HANDLED.has(event.type),

  async apply(trx, recorded: RecordedEvent) {
    const event = recorded as unknown as MatchEvent;
    switch (event.type) {
      case 'MatchPaired': {
        const [a, b] = event.data.sides;
        await trx
          .insertInto('matches')
          .values({ match_id: event.data.matchId, user_a: a.userId, user_b: b.userId, paired_at: event.data.pairedAt })
          .onConflict((c) => c.column('match_id').doNothing())
          .execute();
        return;
      }
      case 'MatchEnded':
        await trx
          .updateTable('matches')
          .set({ ended_at: recorded.metadata.occurredAt, ended_by: event.data.endedBy, end_reason: event.data.reason })
          .where('match_id', '=', event.data.matchId)
          .execute();
        return;
      case 'MatchRelayed':
        await trx
          .updateTable('matches')
          .set({
            relay_reason: event.data.reason,
            sfu_node: event.data.sfuNode,
            relayed_at: recorded.metadata.occurredAt,
          })
          .where('match_id', '=', event.data.matchId)
          .execute();
        return;
      case 'SnapshotTaken':
      case 'SnapshotViewed':
      case 'SnapshotHeld':
      case 'SnapshotReleased':
      case 'SnapshotDeleted':
        // Evidence has its own read model (evidence.projection.ts).
        return;
      case 'PairSeparated':
        // So do separations (separations.projection.ts).
        return;
      case 'FeedbackGiven':
        await trx
          .insertInto('match_feedback')
          .values({
            match_id: event.data.matchId,
            user_id: event.data.userId,
            rating: event.data.rating,
            given_at: recorded.metadata.occurredAt,
          })
          .onConflict((c) => c.columns(['match_id', 'user_id']).doNothing())
          .execute();
        return;
      default: {
        const unknown: never = event;
        throw new Error(`unhandled event ${(unknown as { type: string }).type}`);
      }
    }
  },

  async reset(trx) {
    await sql`truncate matches, match_feedback`.execute(trx);
  },
};
