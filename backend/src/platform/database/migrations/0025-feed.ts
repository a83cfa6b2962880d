import { type Kysely, sql } from 'kysely';

/**
 * The feed's read models (feed context, DESIGN.md "The read side"). `feed_posts.seq` is the order the projection met
 * them in (the log's): pages go by it, so a post published while someone pages never shifts what they see next.
 * Comments and replies share `feed_contributions` (a reply's `comment_id` is the comment it answers, a comment's its
 * own). `feed_hidden_authors`: whose things are hidden now (a ban is on: spec 2 "Banned-account screen").
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('feed_posts')
    .addColumn('post_id', 'uuid', (c) => c.primaryKey())
    .addColumn('seq', 'bigint', (c) => c.notNull().unique().generatedAlwaysAsIdentity())
    .addColumn('author_id', 'uuid', (c) => c.notNull())
    .addColumn('text', 'text', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull())
    .addColumn('like_count', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('comment_count', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema.createIndex('feed_posts_author').on('feed_posts').columns(['author_id', 'seq desc']).execute();

  await db.schema
    .createTable('feed_likes')
    .addColumn('post_id', 'uuid', (c) => c.notNull())
    .addColumn('user_id', 'uuid', (c) => c.notNull())
    .addColumn('liked_at', 'timestamptz', (c) => c.notNull())
    .addPrimaryKeyConstraint('feed_likes_pk', ['post_id', 'user_id'])
    .execute();
  await db.schema.createIndex('feed_likes_recent').on('feed_likes').columns(['post_id', 'liked_at desc']).execute();
  await db.schema.createIndex('feed_likes_user').on('feed_likes').columns(['user_id', 'liked_at desc']).execute();

  await db.schema
    .createTable('feed_contributions')
    .addColumn('id', 'uuid', (c) => c.primaryKey())
    .addColumn('kind', 'text', (c) => c.notNull().check(sql`kind in ('comment', 'reply')`))
    .addColumn('post_id', 'uuid', (c) => c.notNull())
    .addColumn('comment_id', 'uuid', (c) => c.notNull())
    .addColumn('author_id', 'uuid', (c) => c.notNull())
    .addColumn('text', 'text', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull())
    .addColumn('removed_by', 'text')
    .addColumn('removed_categories', sql`text[]`)
    .addColumn('removed_at', 'timestamptz')
    .addColumn('appeal_status', 'text', (c) => c.notNull().defaultTo('none'))
    .addColumn('appeal_explanation', 'text')
    .addColumn('appealed_at', 'timestamptz')
    .execute();
  await db.schema
    .createIndex('feed_contributions_post')
    .on('feed_contributions')
    .columns(['post_id', 'created_at'])
    .execute();
  await db.schema
    .createIndex('feed_contributions_author')
    .on('feed_contributions')
    .columns(['author_id', 'created_at desc'])
    .execute();
  await db.schema
    .createIndex('feed_contributions_pending_appeals')
    .on('feed_contributions')
    .column('appealed_at')
    .where(sql.ref('appeal_status'), '=', 'pending')
    .execute();

  await db.schema
    .createTable('feed_hidden_authors')
    .addColumn('case_id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'uuid', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('feed_hidden_authors_user').on('feed_hidden_authors').column('user_id').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of ['feed_hidden_authors', 'feed_contributions', 'feed_likes', 'feed_posts'])
    await db.schema.dropTable(table).execute();
}
