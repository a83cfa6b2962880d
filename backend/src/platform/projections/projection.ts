import { type Kysely, sql } from 'kysely';
import type { Database } from '../database/schema.js';
import { comparePositions, type Position, type RecordedEvent } from '../event-store/event-store.js';
import { readCheckpoint, writeCheckpoint } from './checkpoints.js';

/**
 * A read model fed by the log. Declared beside its context (`<context>/projections/`), registered with the
 * engine. `apply` runs inside the transaction that also moves the projection's checkpoint.
 */
export interface Projection {
  /** Stable: it names the checkpoint. */
  readonly name: string;
  canHandle(event: RecordedEvent): boolean;
  apply(trx: Kysely<Database>, event: RecordedEvent): Promise<void>;
  /** Optional: the handled events of a batch at once (one multi-row write instead of one per event, for replays). */
  applyBatch?(trx: Kysely<Database>, events: RecordedEvent[]): Promise<void>;
  /** Empties the read model before a rebuild. */
  reset(trx: Kysely<Database>): Promise<void>;
}

/**
 * Applies the events after `from` to one projection, in one transaction with its checkpoint (STYLE.md rule 4).
 * Returns the projection's new position.
 */
export async function applyToProjection(
  db: Kysely<Database>,
  projection: Projection,
  from: Position,
  events: RecordedEvent[],
): Promise<Position> {
  if (!events.some((e) => comparePositions(e.position, from) > 0)) return from;
  return db.transaction().execute(async (trx) => {
    // Read models are derived: rows and checkpoint stay atomic, and a server crash can only take a projection
    // back to an earlier consistent checkpoint, from which it replays. Not waiting for the disk keeps lag low.
    await sql`set local synchronous_commit = off`.execute(trx);
    // One writer per projection at a time (a second projector process, a rebuild run against a live app): the
    // lock serializes them and the checkpoint read under it says what is already applied.
    await sql`select pg_advisory_xact_lock(hashtext(${`projection:${projection.name}`}))`.execute(trx);
    const stored = await readCheckpoint(trx, projection.name);
    const after = stored && comparePositions(stored, from) > 0 ? stored : from;
    const fresh = events.filter((e) => comparePositions(e.position, after) > 0);
    if (fresh.length === 0) return after;
    const last = fresh[fresh.length - 1]!.position;
    const handled = fresh.filter((e) => projection.canHandle(e));
    if (projection.applyBatch) {
      if (handled.length) await projection.applyBatch(trx, handled);
    } else {
      for (const event of handled) await projection.apply(trx, event);
    }
    await writeCheckpoint(trx, projection.name, last);
    return last;
  });
}
