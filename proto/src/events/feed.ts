import { z } from 'zod/mini';
import type { IntegrationEvent } from './integration-event.js';

/**
 * What the feed context tells others (and its own live delivery): ids only, the texts stay sealed in the log. One
 * shape for all of them: `id` names the comment or reply (absent for post events), `authorId` who wrote it (or the
 * post), `userId` who liked, `answersAuthorId` whom a comment or reply answers, `outcome` an appeal's decision.
 */
export const FEED_INTEGRATION_TYPES = [
  'PostPublished',
  'PostDeleted',
  'PostLiked',
  'PostUnliked',
  'CommentAdded',
  'ReplyAdded',
  'CommentDeleted',
  'ReplyDeleted',
  'CommentRemoved',
  'ReplyRemoved',
  'CommentRestored',
  'ReplyRestored',
  'RemovalAppealed',
  'RemovalAppealDecided',
] as const;
export type FeedIntegrationType = (typeof FEED_INTEGRATION_TYPES)[number];

const id = z.string().check(z.minLength(1));
export const feedChangeDataSchema = z.object({
  postId: id,
  authorId: id,
  id: z.optional(id),
  commentId: z.optional(id),
  userId: z.optional(id),
  answersAuthorId: z.optional(id),
  /** A removal's maker: 'filter', or a staff member's id. */
  by: z.optional(id),
  outcome: z.optional(z.enum(['approved', 'rejected'])),
});
export type FeedChangeData = z.infer<typeof feedChangeDataSchema>;
export type FeedIntegrationEvent = IntegrationEvent<FeedIntegrationType, FeedChangeData>;
