import { type Kysely, sql } from 'kysely';

/**
 * The Postgres event store. Global order is (transaction_id, seq): a reader only reads events of transactions
 * older than every transaction still running (the snapshot's xmin), so an append that commits late can never
 * be skipped by a reader that has already moved past a later position (the "gap" problem).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('events')
    .addColumn('transaction_id', sql`xid8`, (c) => c.notNull().defaultTo(sql`pg_current_xact_id()`))
    .addColumn('seq', 'bigserial', (c) => c.notNull())
    .addColumn('id', 'uuid', (c) => c.notNull().unique())
    .addColumn('stream_id', 'text', (c) => c.notNull())
    .addColumn('revision', 'bigint', (c) => c.notNull())
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('data', 'jsonb', (c) => c.notNull())
    .addColumn('metadata', 'jsonb', (c) => c.notNull())
    .addColumn('recorded_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    // The global order, and what readers of all events scan.
    .addPrimaryKeyConstraint('events_global_order', ['transaction_id', 'seq'])
    // Optimistic concurrency: two appends can never both write a stream's next revision.
    .addUniqueConstraint('events_stream_revision', ['stream_id', 'revision'])
    .execute();

  // Append-only: the log is evidence (bans, appeals, reports); nothing may rewrite it.
  await sql`
    create function events_append_only() returns trigger language plpgsql as $$
    begin raise exception 'events are append-only'; end $$`.execute(db);
  await sql`
    create trigger events_no_update_delete before update or delete on events
    for each statement execute function events_append_only()`.execute(db);
  await sql`
    create trigger events_no_truncate before truncate on events
    for each statement execute function events_append_only()`.execute(db);

  // Where each reader of the log (projection, publisher) stands.
  await db.schema
    .createTable('checkpoints')
    .addColumn('name', 'text', (c) => c.primaryKey())
    .addColumn('commit', 'bigint', (c) => c.notNull())
    .addColumn('prepare', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();

  // Per-subject keys for personal data in events. Forgetting a subject sets its key to null in the same row,
  // so "seal with a new key" and "forget" are serialized by the primary key and can never both win.
  await db.schema
    .createTable('subject_keys')
    .addColumn('subject_id', 'text', (c) => c.primaryKey())
    .addColumn('key', 'bytea')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('forgotten_at', 'timestamptz')
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of ['subject_keys', 'checkpoints', 'events']) {
    await db.schema.dropTable(table).execute();
  }
  await sql`drop function if exists events_append_only()`.execute(db);
}
