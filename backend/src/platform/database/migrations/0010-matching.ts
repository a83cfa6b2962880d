import { type Kysely, sql } from 'kysely';

/** The calls read model (skip cooldowns after a restart, the admin's history later) and feedback. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('matches')
    .addColumn('match_id', 'text', (c) => c.primaryKey())
    .addColumn('user_a', 'text', (c) => c.notNull())
    .addColumn('user_b', 'text', (c) => c.notNull())
    .addColumn('paired_at', 'timestamptz', (c) => c.notNull())
    .addColumn('ended_at', 'timestamptz')
    .addColumn('ended_by', 'text')
    .addColumn('end_reason', 'text')
    .execute();
  await db.schema.createIndex('matches_user_a').on('matches').columns(['user_a', 'paired_at']).execute();
  await db.schema.createIndex('matches_user_b').on('matches').columns(['user_b', 'paired_at']).execute();
  await db.schema
    .createIndex('matches_recent_skips')
    .on('matches')
    .column('ended_at')
    .where(sql.ref('end_reason'), '=', 'skip')
    .execute();
  await db.schema
    .createTable('match_feedback')
    .addColumn('match_id', 'text', (c) => c.notNull())
    .addColumn('user_id', 'text', (c) => c.notNull())
    .addColumn('rating', 'smallint', (c) => c.notNull())
    .addColumn('given_at', 'timestamptz', (c) => c.notNull())
    .addPrimaryKeyConstraint('match_feedback_pk', ['match_id', 'user_id'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('match_feedback').execute();
  await db.schema.dropTable('matches').execute();
}
