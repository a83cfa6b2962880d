import type { Kysely } from 'kysely';

/**
 * The admins' audit API reads whom a stream is about from `audit_trail` by stream (spec 6 Admin: a look at a stream's
 * history is recorded against its people): an index by stream, so that is not a scan of every person's trail.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.createIndex('audit_trail_stream').on('audit_trail').columns(['stream_id', 'revision']).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('audit_trail_stream').execute();
}
