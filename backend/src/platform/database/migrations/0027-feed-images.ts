import { type Kysely, sql } from 'kysely';

/**
 * Posts' pictures (feed context): each uploaded picture, whose it is, and the post that shows it (null until posted;
 * an unposted one is deleted after an hour). The files lie under DATA_DIR/feed-images.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('feed_images')
    .addColumn('image_id', 'uuid', (c) => c.primaryKey())
    .addColumn('uploader_id', 'uuid', (c) => c.notNull())
    .addColumn('file', 'text', (c) => c.notNull())
    .addColumn('bytes', 'integer', (c) => c.notNull())
    .addColumn('uploaded_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('post_id', 'uuid')
    .execute();
  await db.schema
    .createIndex('feed_images_uploader')
    .on('feed_images')
    .columns(['uploader_id', 'uploaded_at'])
    .execute();
  await db.schema.createIndex('feed_images_post').on('feed_images').column('post_id').execute();
  await db.schema.alterTable('feed_posts').addColumn('image_id', 'uuid').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('feed_posts').dropColumn('image_id').execute();
  await db.schema.dropTable('feed_images').execute();
}
