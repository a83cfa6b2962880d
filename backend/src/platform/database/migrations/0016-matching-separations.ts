import type { Kysely } from 'kysely';

/**
 * The pairs a report keeps apart for good (matching's PairSeparated): the matchmaker loads them when it starts leading,
 * so a restart or a new leader never pairs them again. One row per pair, its ids in order (`user_a` < `user_b`).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('matching_separated_pairs')
    .addColumn('user_a', 'text', (c) => c.notNull())
    .addColumn('user_b', 'text', (c) => c.notNull())
    .addColumn('match_id', 'text', (c) => c.notNull())
    .addColumn('report_id', 'text', (c) => c.notNull())
    .addColumn('separated_at', 'timestamptz', (c) => c.notNull())
    .addPrimaryKeyConstraint('matching_separated_pairs_pk', ['user_a', 'user_b'])
    .execute();
  await db.schema
    .createIndex('matching_separated_pairs_user_b')
    .on('matching_separated_pairs')
    .column('user_b')
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('matching_separated_pairs').execute();
}
