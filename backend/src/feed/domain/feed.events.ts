import type { DomainEvent } from '../../platform/cqrs/decider.js';
import type { EventSchema } from '../../platform/personal-data/event-schemas.js';

/**
 * Streams are small on purpose: a post (published, deleted), one person's like of one post, one comment, one reply.
 * A post liked by thousands is thousands of one-event streams that never contend, and a like never replays the others.
 */
export const postStream = (postId: string) => `feed-post-${postId}`;
export const likeStream = (postId: string, userId: string) => `feed-like-${postId}-${userId}`;
export const commentStream = (commentId: string) => `feed-comment-${commentId}`;
export const replyStream = (replyId: string) => `feed-reply-${replyId}`;

/** `text` may be '' when the post is a picture (`imageId`, a file under DATA_DIR/feed-images, gone with the post). */
export type PostPublished = DomainEvent<
  'PostPublished',
  { postId: string; authorId: string; text: string; imageId?: string }
>;
/** By its author, or by the system when the author's account was deleted. */
export type PostDeleted = DomainEvent<'PostDeleted', { postId: string; authorId: string; by: string }>;
export type PostLiked = DomainEvent<'PostLiked', { postId: string; userId: string; postAuthorId: string }>;
export type PostUnliked = DomainEvent<'PostUnliked', { postId: string; userId: string; postAuthorId: string }>;

export type CommentAdded = DomainEvent<
  'CommentAdded',
  { commentId: string; postId: string; authorId: string; postAuthorId: string; text: string }
>;
export type ReplyAdded = DomainEvent<
  'ReplyAdded',
  {
    replyId: string;
    commentId: string;
    postId: string;
    authorId: string;
    commentAuthorId: string;
    text: string;
  }
>;

interface Ids {
  /** The comment's id, or the reply's. */
  id: string;
  postId: string;
  /** The comment itself, or the comment a reply answers. */
  commentId: string;
  authorId: string;
}
export type CommentDeleted = DomainEvent<'CommentDeleted', Ids & { by: string }>;
export type ReplyDeleted = DomainEvent<'ReplyDeleted', Ids & { by: string }>;
/**
 * Taken down: by the profanity filter the moment it was written (`by` 'filter', `categories` what it matched), or by
 * a staff member (`by` their id, `reason` their words, no categories). Kept in the log and shown to its author and to
 * staff.
 */
interface Removal {
  by: string;
  /** A staff member's role when they removed it: a moderator does not overrule an admin on its appeal. */
  byRole?: 'admin' | 'moderator';
  categories: string[];
  /** A staff member's own words on why (sealed: they speak of the author's words). */
  reason?: string;
}
export type CommentRemoved = DomainEvent<'CommentRemoved', Ids & Removal>;
export type ReplyRemoved = DomainEvent<'ReplyRemoved', Ids & Removal>;
/** Its author asked for the removal to be looked at again ('Comment Removed' Appeal). */
export type RemovalAppealed = DomainEvent<'RemovalAppealed', Ids & { kind: 'comment' | 'reply'; explanation: string }>;
export type RemovalAppealDecided = DomainEvent<
  'RemovalAppealDecided',
  Ids & { kind: 'comment' | 'reply'; outcome: 'approved' | 'rejected'; decidedBy: string; note?: string }
>;
/** An approved appeal puts it back where it was. */
export type CommentRestored = DomainEvent<'CommentRestored', Ids>;
export type ReplyRestored = DomainEvent<'ReplyRestored', Ids>;

export type PostEvent = PostPublished | PostDeleted;
export type LikeEvent = PostLiked | PostUnliked;
export type ContributionEvent =
  | CommentAdded
  | ReplyAdded
  | CommentDeleted
  | ReplyDeleted
  | CommentRemoved
  | ReplyRemoved
  | RemovalAppealed
  | RemovalAppealDecided
  | CommentRestored
  | ReplyRestored;
export type FeedEvent = PostEvent | LikeEvent | ContributionEvent;

/**
 * What people write is theirs (DESIGN.md "Personal data"): a post's, comment's or reply's text and an appeal's
 * explanation are sealed under the author's key, so deleting the account erases them from the log as well.
 */
const ids = (type: string): EventSchema => ({ type, schemaVersion: 1 });
export const feedEventSchemas: EventSchema[] = [
  { type: 'PostPublished', schemaVersion: 1, subject: (d) => d.authorId as string, personal: ['text'] },
  ids('PostDeleted'),
  ids('PostLiked'),
  ids('PostUnliked'),
  { type: 'CommentAdded', schemaVersion: 1, subject: (d) => d.authorId as string, personal: ['text'] },
  { type: 'ReplyAdded', schemaVersion: 1, subject: (d) => d.authorId as string, personal: ['text'] },
  ids('CommentDeleted'),
  ids('ReplyDeleted'),
  { type: 'CommentRemoved', schemaVersion: 1, subject: (d) => d.authorId as string, personal: ['reason'] },
  { type: 'ReplyRemoved', schemaVersion: 1, subject: (d) => d.authorId as string, personal: ['reason'] },
  { type: 'RemovalAppealed', schemaVersion: 1, subject: (d) => d.authorId as string, personal: ['explanation'] },
  // The staff member's note speaks of the author's words: theirs, and erased with them.
  { type: 'RemovalAppealDecided', schemaVersion: 1, subject: (d) => d.authorId as string, personal: ['note'] },
  ids('CommentRestored'),
  ids('ReplyRestored'),
];
