import { type Kysely, sql } from 'kysely';

/**
 * The dashboard overview (spec 2 "Admin dashboard"): the admin context's chart read models, and who is online.
 *
 * - `dash_calls`: one row per call (its wait, whether it was relayed, its length), for the medians of the last 24 h.
 * - `dash_call_hours`: calls paired and relayed per hour (the hour the call was paired), for matches per hour and the
 *   P2P/relay share per day without reading every call of 14 days.
 * - `dash_moderation_days`: reports filed and bans made per (UTC) day.
 * - `online_nodes` and `online_users`: each backend node's signed-in system sockets (one row per user per node) and
 *   its heartbeat; a node's rows count only while its heartbeat is fresh, so a dropped node's share expires on its own.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('dash_calls')
    .addColumn('match_id', 'text', (c) => c.primaryKey())
    .addColumn('paired_at', 'timestamptz', (c) => c.notNull())
    .addColumn('wait_ms', 'integer', (c) => c.notNull())
    .addColumn('relayed', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('ended_at', 'timestamptz')
    .addColumn('duration_ms', 'bigint')
    .execute();
  await db.schema.createIndex('dash_calls_paired_at').on('dash_calls').column('paired_at').execute();
  await sql`create index dash_calls_ended_at on dash_calls (ended_at) where ended_at is not null`.execute(db);
  await db.schema
    .createTable('dash_call_hours')
    .addColumn('hour', 'timestamptz', (c) => c.primaryKey())
    .addColumn('paired', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('relayed', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema
    .createTable('dash_moderation_days')
    .addColumn('day', 'date', (c) => c.primaryKey())
    .addColumn('reports', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('bans', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema
    .createTable('online_nodes')
    .addColumn('node_id', 'text', (c) => c.primaryKey())
    .addColumn('beat_at', 'timestamptz', (c) => c.notNull())
    .execute();
  await db.schema
    .createTable('online_users')
    .addColumn('node_id', 'text', (c) => c.notNull())
    .addColumn('user_id', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('online_users_pk', ['node_id', 'user_id'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of ['online_users', 'online_nodes', 'dash_moderation_days', 'dash_call_hours', 'dash_calls']) {
    await db.schema.dropTable(table).execute();
  }
}
