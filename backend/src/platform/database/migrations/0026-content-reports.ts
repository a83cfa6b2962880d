import type { Kysely } from 'kysely';

/**
 * Reports of what people write in the feed (moderation): no call, but the post, comment or reply reported, under which
 * post, and its words as they stood when reported (the author's personal data: cleared when they are forgotten).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('moderation_reports')
    .alterColumn('match_id', (c) => c.dropNotNull())
    .execute();
  await db.schema
    .alterTable('moderation_reports')
    .addColumn('content_kind', 'text')
    .addColumn('content_id', 'uuid')
    .addColumn('content_post_id', 'uuid')
    .addColumn('content_text', 'text')
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('moderation_reports')
    .dropColumn('content_kind')
    .dropColumn('content_id')
    .dropColumn('content_post_id')
    .dropColumn('content_text')
    .execute();
}
