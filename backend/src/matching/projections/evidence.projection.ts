import { sql } from 'kysely';
import type { EvidenceAuditTable } from '../../platform/database/schema.js';
import type { RecordedEvent } from '../../platform/event-store/event-store.js';
import type { Projection } from '../../platform/projections/projection.js';
import type { SnapshotEvent } from '../domain/match.events.js';

const HANDLED = new Set<string>([
  'SnapshotTaken',
  'SnapshotViewed',
  'SnapshotHeld',
  'SnapshotReleased',
  'SnapshotDeleted',
]);

/**
 * matching's evidence read models: `evidence_snapshots` (one row per snapshot still kept: what retention and account
 * deletion look for) and `evidence_audit` (every taking, look, hold and deletion, for admins). Ids only: the reason a
 * snapshot was taken for stays sealed in the log.
 */
export const evidenceProjection: Projection = {
  name: 'matching.evidence',

  canHandle: (event) => HANDLED.has(event.type),

  async apply(trx, recorded: RecordedEvent) {
    const event = recorded as unknown as SnapshotEvent;
    const { snapshotId } = event.data;
    const audit = async (
      action: EvidenceAuditTable['action'],
      userId: string,
      detail: string | null,
    ): Promise<void> => {
      await trx
        .insertInto('evidence_audit')
        .values({
          event_id: recorded.id,
          snapshot_id: snapshotId,
          match_id: event.data.matchId,
          user_id: userId,
          action,
          actor: recorded.metadata.actor,
          at: recorded.metadata.occurredAt,
          detail,
        })
        .onConflict((c) => c.column('event_id').doNothing())
        .execute();
    };
    const userOf = async () =>
      (
        await trx
          .selectFrom('evidence_audit')
          .select('user_id')
          .where('snapshot_id', '=', snapshotId)
          .limit(1)
          .executeTakeFirst()
      )?.user_id ?? '';
    const countHold = (by: 1 | -1) =>
      trx
        .updateTable('evidence_snapshots')
        .set({ holds: sql<number>`greatest(holds + ${by}, 0)` })
        .where('snapshot_id', '=', snapshotId)
        .execute();

    switch (event.type) {
      case 'SnapshotTaken': {
        const { matchId, userId, requestedBy, reportId, file, bytes, takenAt } = event.data;
        await trx
          .insertInto('evidence_snapshots')
          .values({
            snapshot_id: snapshotId,
            match_id: matchId,
            user_id: userId,
            requested_by: requestedBy,
            report_id: reportId,
            file,
            bytes,
            taken_at: takenAt,
          })
          .onConflict((c) => c.column('snapshot_id').doNothing())
          .execute();
        await audit('taken', userId, reportId);
        return;
      }
      case 'SnapshotViewed':
        await audit('viewed', await userOf(), null);
        return;
      case 'SnapshotHeld':
        await countHold(1);
        await audit('held', await userOf(), event.data.caseId);
        return;
      case 'SnapshotReleased':
        await countHold(-1);
        await audit('released', await userOf(), event.data.caseId);
        return;
      case 'SnapshotDeleted':
        await trx.deleteFrom('evidence_snapshots').where('snapshot_id', '=', snapshotId).execute();
        await audit('deleted', event.data.userId, event.data.reason);
        return;
      default: {
        const unknown: never = event;
        throw new Error(`unhandled event ${(unknown as { type: string }).type}`);
      }
    }
  },

  async reset(trx) {
    await sql`truncate evidence_snapshots, evidence_audit`.execute(trx);
  },
};
