import type { Kysely } from 'kysely';
import type { Position } from '../event-store/event-store.js';
import type { Database } from '../database/schema.js';

/**
 * Where a reader of the log (a projection, the integration-event publisher) stands. Written in the same
 * transaction as the reader's own rows, so a crash loses or repeats nothing.
 */
export async function readCheckpoint(db: Kysely<Database>, name: string): Promise<Position | undefined> {
  const row = await db
    .selectFrom('checkpoints')
    .select(['commit', 'prepare'])
    .where('name', '=', name)
    .executeTakeFirst();
  return row ? { commit: BigInt(row.commit), prepare: BigInt(row.prepare) } : undefined;
}

export async function writeCheckpoint(db: Kysely<Database>, name: string, position: Position): Promise<void> {
  const values = { name, commit: position.commit.toString(), prepare: position.prepare.toString() };
  await db
    .insertInto('checkpoints')
    .values(values)
    .onConflict((oc) =>
      oc.column('name').doUpdateSet({ commit: values.commit, prepare: values.prepare, updated_at: new Date() }),
    )
    .execute();
}

export async function deleteCheckpoint(db: Kysely<Database>, name: string): Promise<void> {
  await db.deleteFrom('checkpoints').where('name', '=', name).execute();
}
