import { type Kysely, sql } from 'kysely';

/**
 * The dashboard's user management (spec 2 "Admin dashboard"):
 * - `audit_trail`: which events of the log are about which person (one row per person and event, by log position),
 *   so a user's trail pages in SQL and each page reads only its own events from the log (personal data stays sealed
 *   there; this index holds ids, types, times and actors only).
 * - `audit_trail_refs`: whom a call, a report or a snapshot is about, for later events that name only the call, the
 *   report or the snapshot (a look at evidence, a call's end).
 * - prefix-search indexes on the users read model (names, username, e-mail) and its newest-first order, for the user
 *   list over 10,000 accounts.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('audit_trail')
    .addColumn('subject_id', 'text', (c) => c.notNull())
    .addColumn('commit', 'bigint', (c) => c.notNull())
    .addColumn('prepare', 'bigint', (c) => c.notNull())
    .addColumn('event_id', 'text', (c) => c.notNull())
    .addColumn('stream_id', 'text', (c) => c.notNull())
    .addColumn('revision', 'bigint', (c) => c.notNull())
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('actor', 'text', (c) => c.notNull())
    .addColumn('occurred_at', 'timestamptz', (c) => c.notNull())
    .addPrimaryKeyConstraint('audit_trail_pk', ['subject_id', 'commit', 'prepare'])
    .execute();
  await db.schema
    .createTable('audit_trail_refs')
    .addColumn('ref', 'text', (c) => c.primaryKey())
    .addColumn('subject_ids', sql`text[]`, (c) => c.notNull())
    .execute();

  for (const [name, expression] of [
    ['users_search_first_name', sql`lower(first_name) text_pattern_ops`],
    ['users_search_last_name', sql`lower(last_name) text_pattern_ops`],
    ['users_search_full_name', sql`lower(first_name || ' ' || last_name) text_pattern_ops`],
    ['users_search_username', sql`lower(username) text_pattern_ops`],
    ['users_search_email', sql`lower(email_address) text_pattern_ops`],
  ] as const) {
    await db.schema.createIndex(name).on('users').expression(expression).execute();
  }
  await db.schema
    .createIndex('users_newest')
    .on('users')
    .expression(sql`registered_at desc, user_id`)
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const name of [
    'users_search_first_name',
    'users_search_last_name',
    'users_search_full_name',
    'users_search_username',
    'users_search_email',
    'users_newest',
  ]) {
    await db.schema.dropIndex(name).execute();
  }
  await db.schema.dropTable('audit_trail_refs').execute();
  await db.schema.dropTable('audit_trail').execute();
}
