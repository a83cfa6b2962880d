import { sql } from 'kysely';
import type { Kysely } from 'kysely';
import type { Database } from '../../platform/database/schema.js';
import type { RecordedEvent } from '../../platform/event-store/event-store.js';
import { plain } from '../../platform/personal-data/personal-data-vault.js';
import type { Projection } from '../../platform/projections/projection.js';
import { feedEventSchemas, type FeedEvent } from '../domain/feed.events.js';

const HANDLED = new Set(feedEventSchemas.map((s) => s.type));

/** Counts a post's shown comments (not replies, not removed ones) up or down: what its page lists. */
async function countComments(trx: Kysely<Database>, postId: string, by: number) {
  if (by === 0) return;
  await trx
    .updateTable('feed_posts')
    .set((eb) => ({ comment_count: eb('comment_count', '+', by) }))
    .where('post_id', '=', postId)
    .execute();
}

/**
 * `feed_posts` (with their like and comment counts), `feed_likes` and `feed_contributions` (comments and replies, with
 * removals and their appeals): what the feed, a post's page, a user's page and the activity page read. A post,
 * comment or reply whose author was forgotten (its text erased) is not built again on a rebuild, nor is anything
 * under a post or comment that is gone.
 */
export const feedProjection: Projection = {
  name: 'feed',

  canHandle: (event) => HANDLED.has(event.type),

  async apply(trx, recorded: RecordedEvent) {
    const event = recorded as unknown as FeedEvent;
    const at = recorded.metadata.occurredAt;
    switch (event.type) {
      case 'PostPublished': {
        const text = plain(event.data.text);
        if (text === null) return;
        await trx
          .insertInto('feed_posts')
          .values({
            post_id: event.data.postId,
            author_id: event.data.authorId,
            text,
            created_at: at,
            image_id: event.data.imageId ?? null,
          })
          .onConflict((c) => c.column('post_id').doNothing())
          .execute();
        return;
      }
      case 'PostDeleted': {
        const { postId } = event.data;
        await trx.deleteFrom('feed_contributions').where('post_id', '=', postId).execute();
        await trx.deleteFrom('feed_likes').where('post_id', '=', postId).execute();
        await trx.deleteFrom('feed_posts').where('post_id', '=', postId).execute();
        return;
      }
      case 'PostLiked': {
        const { postId, userId } = event.data;
        const inserted = await trx
          .insertInto('feed_likes')
          .columns(['post_id', 'user_id', 'liked_at'])
          .expression((eb) =>
            eb
              .selectFrom('feed_posts')
              .select([eb.val(postId).as('post_id'), eb.val(userId).as('user_id'), eb.val(at).as('liked_at')])
              .where('post_id', '=', postId),
          )
          .onConflict((c) => c.columns(['post_id', 'user_id']).doNothing())
          .executeTakeFirst();
        if (Number(inserted.numInsertedOrUpdatedRows ?? 0) > 0) {
          await trx
            .updateTable('feed_posts')
            .set((eb) => ({ like_count: eb('like_count', '+', 1) }))
            .where('post_id', '=', postId)
            .execute();
        }
        return;
      }
      case 'PostUnliked': {
        const { postId, userId } = event.data;
        const deleted = await trx
          .deleteFrom('feed_likes')
          .where('post_id', '=', postId)
          .where('user_id', '=', userId)
          .executeTakeFirst();
        if (Number(deleted.numDeletedRows) > 0) {
          await trx
            .updateTable('feed_posts')
            .set((eb) => ({ like_count: eb('like_count', '-', 1) }))
            .where('post_id', '=', postId)
            .execute();
        }
        return;
      }
      case 'CommentAdded':
      case 'ReplyAdded': {
        const text = plain(event.data.text);
        if (text === null) return;
        const reply = event.type === 'ReplyAdded';
        const id = reply ? event.data.replyId : event.data.commentId;
        const { postId, commentId } = event.data;
        // Under a post (and, for a reply, a comment) that is still there.
        const parent = reply
          ? await trx.selectFrom('feed_contributions').select('id').where('id', '=', commentId).executeTakeFirst()
          : await trx.selectFrom('feed_posts').select('post_id').where('post_id', '=', postId).executeTakeFirst();
        if (!parent) return;
        const inserted = await trx
          .insertInto('feed_contributions')
          .values({
            id,
            kind: reply ? 'reply' : 'comment',
            post_id: postId,
            comment_id: commentId,
            author_id: event.data.authorId,
            text,
            created_at: at,
            removed_by: null,
            removed_categories: null,
            removed_at: null,
            appeal_explanation: null,
            appealed_at: null,
          })
          .onConflict((c) => c.column('id').doNothing())
          .executeTakeFirst();
        if (!reply && Number(inserted.numInsertedOrUpdatedRows ?? 0) > 0) await countComments(trx, postId, 1);
        return;
      }
      case 'CommentRemoved':
      case 'ReplyRemoved': {
        const updated = await trx
          .updateTable('feed_contributions')
          .set({
            removed_by: event.data.by,
            // The filter's categories, or the staff member's reason.
            removed_categories: event.data.categories.length
              ? event.data.categories
              : [plain(event.data.reason) || 'Removed by a moderator'],
            removed_at: at,
          })
          .where('id', '=', event.data.id)
          .where('removed_by', 'is', null)
          .executeTakeFirst();
        if (event.type === 'CommentRemoved')
          await countComments(trx, event.data.postId, -Number(updated.numUpdatedRows));
        return;
      }
      case 'CommentRestored':
      case 'ReplyRestored': {
        const updated = await trx
          .updateTable('feed_contributions')
          .set({ removed_by: null, removed_categories: null, removed_at: null })
          .where('id', '=', event.data.id)
          .where('removed_by', 'is not', null)
          .executeTakeFirst();
        if (event.type === 'CommentRestored')
          await countComments(trx, event.data.postId, Number(updated.numUpdatedRows));
        return;
      }
      case 'CommentDeleted':
      case 'ReplyDeleted': {
        // A comment goes with its replies.
        const gone = await trx
          .deleteFrom('feed_contributions')
          .where((eb) =>
            event.type === 'CommentDeleted'
              ? eb.or([eb('id', '=', event.data.id), eb('comment_id', '=', event.data.id)])
              : eb('id', '=', event.data.id),
          )
          .returning(sql<boolean>`kind = 'comment' and removed_by is null`.as('shownComment'))
          .execute();
        await countComments(trx, event.data.postId, -gone.filter((row) => row.shownComment).length);
        return;
      }
      case 'RemovalAppealed':
        await trx
          .updateTable('feed_contributions')
          .set({ appeal_status: 'pending', appeal_explanation: plain(event.data.explanation) ?? '', appealed_at: at })
          .where('id', '=', event.data.id)
          .execute();
        return;
      case 'RemovalAppealDecided':
        await trx
          .updateTable('feed_contributions')
          .set({ appeal_status: event.data.outcome })
          .where('id', '=', event.data.id)
          .execute();
        return;
      default: {
        const unknown: never = event;
        throw new Error(`unhandled event ${(unknown as { type: string }).type}`);
      }
    }
  },

  async reset(trx) {
    await trx.deleteFrom('feed_contributions').execute();
    await trx.deleteFrom('feed_likes').execute();
    await trx.deleteFrom('feed_posts').execute();
  },
};
