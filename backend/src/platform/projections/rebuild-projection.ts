import type { Kysely } from 'kysely';
import type { Database } from '../database/schema.js';
import { type EventStore, START } from '../event-store/event-store.js';
import { deleteCheckpoint } from './checkpoints.js';
import { applyToProjection, type Projection } from './projection.js';

const BATCH = 2000;

/**
 * Empties a projection's read model and replays the whole log into it. Run it with the app's projector
 * stopped (`npm run projections:rebuild`), or the live engine and the rebuild would write the same rows.
 */
export async function rebuildProjection(
  db: Kysely<Database>,
  store: EventStore,
  projection: Projection,
  onProgress: (eventsRead: number) => void = () => undefined,
): Promise<{ events: number }> {
  await db.transaction().execute(async (trx) => {
    await projection.reset(trx);
    await deleteCheckpoint(trx, projection.name);
  });
  let position = START;
  let count = 0;
  for (;;) {
    const events = await store.readAll({ after: position, maxCount: BATCH });
    if (events.length === 0) return { events: count };
    position = await applyToProjection(db, projection, position, events);
    count += events.length;
    onProgress(count);
  }
}
