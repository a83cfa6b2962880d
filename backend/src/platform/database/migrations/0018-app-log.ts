import { type Kysely, sql } from 'kysely';

/**
 * The application's own log lines (info and above), as the System Log shows them to admins (spec 2, 7 GET /dash/logs):
 * written in batches by platform/logging/database-log-sink.ts, deleted after LOG_RETENTION_DAYS.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('app_log')
    .addColumn('id', 'bigserial', (c) => c.primaryKey())
    .addColumn('logged_at', 'timestamptz', (c) => c.notNull())
    .addColumn('level', 'text', (c) => c.notNull())
    .addColumn('message', 'text', (c) => c.notNull())
    .addColumn('context', 'text')
    .addColumn('instance', 'text', (c) => c.notNull())
    .execute();
  // Newest first, all levels or one level (the page's filter); the id breaks ties within a millisecond.
  await sql`create index app_log_newest on app_log (logged_at desc, id desc)`.execute(db);
  await sql`create index app_log_level_newest on app_log (level, logged_at desc, id desc)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('app_log').execute();
}
