import type { Kysely } from 'kysely';
import type { Database } from '../../platform/database/schema.js';
import type { RecordedEvent } from '../../platform/event-store/event-store.js';
import type { Projection } from '../../platform/projections/projection.js';
import { isUuid } from '../../platform/shared/ids.js';

type Data = Record<string, unknown>;

/** Fields that name the person an event is about, across the contexts' events. */
const PERSON_FIELDS = ['userId', 'reporterId', 'reportedId', 'subjectId', 'recipientId', 'authorId'] as const;

/** Later events name only the call, the report or the snapshot: the event that starts one says whom it is about. */
function refsMadeBy(event: RecordedEvent): [string, string[]] | undefined {
  const d = event.data as Data;
  switch (event.type) {
    case 'MatchPaired':
      return [`match:${String(d.matchId)}`, ((d.sides as { userId: string }[] | undefined) ?? []).map((s) => s.userId)];
    case 'ReportFiled':
    case 'ContentReportFiled':
      return [`report:${String(d.reportId)}`, [d.reporterId as string, d.reportedId as string]];
    case 'SnapshotTaken':
      return [`snapshot:${String(d.snapshotId)}`, [d.userId as string]];
    default:
      return undefined;
  }
}

/** The people an event names itself: its person fields, a pair's ids, a call's sides. */
function namedPeople(d: Data): string[] {
  const ids: unknown[] = PERSON_FIELDS.map((f) => d[f]);
  if (Array.isArray(d.userIds)) ids.push(...(d.userIds as unknown[]));
  if (Array.isArray(d.sides)) ids.push(...(d.sides as { userId?: unknown }[]).map((s) => s?.userId));
  return ids.filter(isUuid);
}

/**
 * `audit_trail`: which events are about whom (spec 6 Admin "audit trail"), by log position. An event is about the
 * people it names; one that names only a snapshot, a report or a call (a look at evidence, a call ending) is about
 * whom that snapshot, report or call is about; a report's review is about both its parties. The actor is in it too
 * when a person acted (a ban, a look at someone's details): staff are audited like everyone else. Only ids, types,
 * times and actors are kept here: the trail reads the events themselves from the log, where personal data stays
 * sealed and reads as erased once its subject is forgotten.
 */
export const auditTrailProjection: Projection = {
  name: 'admin.audit-trail',

  canHandle: (event) => typeof event.data === 'object' && event.data !== null,

  async apply(trx, event) {
    await indexEvent(trx, event);
  },

  async reset(trx) {
    await trx.deleteFrom('audit_trail').execute();
    await trx.deleteFrom('audit_trail_refs').execute();
  },
};

async function indexEvent(trx: Kysely<Database>, event: RecordedEvent): Promise<void> {
  const d = event.data as Data;
  const made = refsMadeBy(event);
  if (made) {
    const ids = made[1].filter(isUuid);
    await trx
      .insertInto('audit_trail_refs')
      .values({ ref: made[0], subject_ids: ids })
      .onConflict((c) => c.column('ref').doNothing())
      .execute();
  }
  const people = new Set(namedPeople(d));
  const ref =
    typeof d.snapshotId === 'string'
      ? `snapshot:${d.snapshotId}`
      : typeof d.reportId === 'string'
        ? `report:${d.reportId}`
        : typeof d.matchId === 'string'
          ? `match:${d.matchId}`
          : undefined;
  if (ref && (people.size === 0 || event.type === 'ReportResolved')) {
    const row = await trx
      .selectFrom('audit_trail_refs')
      .select('subject_ids')
      .where('ref', '=', ref)
      .executeTakeFirst();
    for (const id of row?.subject_ids ?? []) people.add(id);
  }
  if (isUuid(event.metadata.actor)) people.add(event.metadata.actor);
  if (people.size === 0) return;
  await trx
    .insertInto('audit_trail')
    .values(
      [...people].map((subjectId) => ({
        subject_id: subjectId,
        commit: event.position.commit.toString(),
        prepare: event.position.prepare.toString(),
        event_id: event.id,
        stream_id: event.streamId,
        revision: event.revision.toString(),
        type: event.type,
        actor: event.metadata.actor,
        occurred_at: event.metadata.occurredAt,
      })),
    )
    .onConflict((c) => c.columns(['subject_id', 'commit', 'prepare']).doNothing())
    .execute();
}
