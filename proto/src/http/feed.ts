import { z } from 'zod/mini';

/**
 * The feed (spec 1 "live comment/reply updates, like counts", 3 Comment/Reply/Post, 4 "live content merging", 5, 7):
 * signed-in people post short texts, like them, comment and reply. Every comment and reply is checked by the server's
 * profanity filter; one that fails is removed at once and its author told why ('Comment Removed').
 */
export const FEED_LIMITS = { post: 2_000, comment: 1_000, reply: 1_000 } as const;
/** Posts a page of the feed, a user's page or the activity page holds. */
export const FEED_PAGE_SIZE = 20;
/** The most recent likers a post view lists (`likes`); `likeCount` counts them all. */
export const LIKES_LISTED = 50;

/** A person as the feed shows them: enough to name and link them, nothing else. */
export interface FeedAuthor {
  _id: string;
  firstName: string;
  avatar: string | null;
  /** An admin: shown with the 'Administrator' badge. */
  isAdmin: boolean;
}

/** Why a comment or reply was taken down: by the profanity filter (with what it matched) or by an admin. */
export interface Removal {
  by: 'filter' | 'admin';
  /** The violations, as the 'Comment Removed' modal lists them (e.g. 'Profanity'), or a staff member's reason. */
  categories: string[];
  at: string;
  /** Its author's appeal: 'none' while they may still appeal (once). */
  appeal: 'none' | 'pending' | 'approved' | 'rejected';
}

/** spec 3 Reply: _id, commentId. */
export interface ReplyView {
  _id: string;
  commentId: string;
  postId: string;
  author: FeedAuthor;
  text: string;
  createdAt: string;
  /** Only in answers to its author and to admins; a removed reply is shown to no one else. */
  removed?: Removal;
}

/** spec 3 Comment: _id, postId; its replies oldest first. */
export interface CommentView {
  _id: string;
  postId: string;
  author: FeedAuthor;
  text: string;
  createdAt: string;
  replies: ReplyView[];
  removed?: Removal;
}

/**
 * spec 3 Post: _id, likes. `likes` is the most recent LIKES_LISTED likers' ids (spec 3: the client counted the list;
 * a popular post's whole list would be megabytes), `likeCount` all of them, `likedByMe` whether the viewer is one.
 */
export interface PostView {
  _id: string;
  author: FeedAuthor;
  /** '' for a post that is only a picture. */
  text: string;
  /** The post's picture (a URL on this server), when it has one. */
  image?: string;
  createdAt: string;
  likes: string[];
  likeCount: number;
  likedByMe: boolean;
  commentCount: number;
}

/** A post opened on its own page: with its comments and their replies, oldest first. */
export interface PostDetail extends PostView {
  comments: CommentView[];
}

/** A page of posts, newest first; `next` is the cursor of the page after (absent on the last). */
export interface FeedPage {
  items: PostView[];
  next?: string;
}

/** Another user's public profile (the peer page): these fields and their posts, nothing else. */
export interface PeerProfile {
  _id: string;
  firstName: string;
  avatar: string | null;
  /** Absent when their birth date is unknown. */
  age?: number;
  /** ISO 3166-1 alpha-2, lower case; absent when unknown. */
  country?: string;
  bio: string;
  isAdmin: boolean;
}

/** One line of the activity page: something the user did, newest first. */
export type ActivityItem =
  | { kind: 'post'; at: string; postId: string; text: string }
  | { kind: 'comment'; at: string; postId: string; commentId: string; text: string; removed?: Removal }
  | { kind: 'reply'; at: string; postId: string; commentId: string; replyId: string; text: string; removed?: Removal }
  | { kind: 'like'; at: string; postId: string; text: string }
  | { kind: 'call'; at: string; matchId: string; partnerFirstName: string | null; seconds: number | null };

export interface ActivityPage {
  items: ActivityItem[];
  next?: string;
}

/** Something a reader would see: not only spaces and invisible characters (zero-width spaces, soft hyphens). */
const VISIBLE = /[^\s\p{Cf}]/u;
const text = (max: number, field: string) =>
  z
    .string()
    .check(
      z.trim(),
      z.regex(VISIBLE, `${field} must not be empty`),
      z.maxLength(max, `${field} must be at most ${max.toLocaleString('en-US')} characters`),
    );

/** A post's picture: uploaded first (POST FEED_PATHS.images, the picture's own bytes), then named by the post. */
export const FEED_IMAGE_MAX_BYTES = 8 * 1024 * 1024;
export const FEED_IMAGE_TYPES = ['image/jpeg', 'image/png', 'image/webp'] as const;
export interface FeedImageUploaded {
  imageId: string;
  /** The re-encoded picture (for the composer's preview; the uploader's alone until a post shows it). */
  url: string;
}

/** A post says something, shows a picture, or both. */
export const publishPostRequestSchema = z
  .object({
    text: z.optional(
      z.string().check(z.trim(), z.maxLength(FEED_LIMITS.post, 'text must be at most 2,000 characters')),
    ),
    imageId: z.optional(z.string().check(z.uuid('imageId must be the id of an uploaded picture'))),
  })
  .check(
    z.refine((post) => VISIBLE.test(post.text ?? '') || Boolean(post.imageId), {
      message: 'text must not be empty',
      path: ['text'],
    }),
  );
export type PublishPostRequest = z.infer<typeof publishPostRequestSchema>;
export const addCommentRequestSchema = z.object({ text: text(FEED_LIMITS.comment, 'text') });
export type AddCommentRequest = z.infer<typeof addCommentRequestSchema>;
export const addReplyRequestSchema = z.object({ text: text(FEED_LIMITS.reply, 'text') });
export type AddReplyRequest = z.infer<typeof addReplyRequestSchema>;

/** What liking or unliking answers (the same as the push): the post's likes now. */
export interface LikesView {
  postId: string;
  likes: string[];
  likeCount: number;
  likedByMe: boolean;
}

/** The appeal of a removed comment or reply ('Comment Removed' modal's Appeal). */
export const REMOVAL_APPEAL_MAX_LENGTH = 2_000;
export const appealRemovalRequestSchema = z.object({
  explanation: text(REMOVAL_APPEAL_MAX_LENGTH, 'explanation'),
});
export type AppealRemovalRequest = z.infer<typeof appealRemovalRequestSchema>;

/** A staff member takes a comment or reply down (POST FEED_PATHS.remove): the reason its author is shown. */
export const REMOVAL_REASON_MAX_LENGTH = 200;
export const removeContentRequestSchema = z.object({ reason: text(REMOVAL_REASON_MAX_LENGTH, 'reason') });
export type RemoveContentRequest = z.infer<typeof removeContentRequestSchema>;

/** A removal its author appealed, as the dashboard's Appeals page lists it beside ban appeals (pending, oldest first). */
export interface DashRemovalAppeal {
  /** The removed comment's or reply's id (names the appeal too). */
  _id: string;
  kind: 'comment' | 'reply';
  postId: string;
  author: { _id: string; firstName: string | null };
  text: string;
  writtenAt: string;
  removal: Removal;
  explanation: string;
  appealedAt: string;
}
export const decideRemovalAppealRequestSchema = z.object({
  outcome: z.enum(['approved', 'rejected']),
  note: z.optional(z.string().check(z.trim(), z.maxLength(2_000))),
});
export type DecideRemovalAppealRequest = z.infer<typeof decideRemovalAppealRequestSchema>;

/** 404s and 403s people may see. */
export const FEED_ERRORS = {
  postNotFound: 'This post no longer exists.',
  commentNotFound: 'This comment no longer exists.',
  replyNotFound: 'This reply no longer exists.',
  notYours: 'You can only delete what you wrote.',
  removalNotYours: 'You can only appeal the removal of your own comment.',
  alreadyAppealed: 'You have appealed this removal already.',
  notRemoved: 'This comment was not removed.',
} as const;

/** Paths (all need a signed-in, unrestricted user; cursors are opaque strings from the previous page). */
export const FEED_PATHS = {
  /** GET ?cursor= : the feed, newest first. POST {text, imageId}: publish a post (answers the PostView, 201). */
  posts: '/api/feed/posts',
  /** POST the picture's bytes (a FEED_IMAGE_TYPES Content-Type): answers FeedImageUploaded (201). */
  images: '/api/feed/images',
  /** GET: a post's picture (signed-in people; while unposted, its uploader only). */
  image: (imageId: string) => `/api/feed/images/${encodeURIComponent(imageId)}`,
  /** GET: one post with its comments and replies. DELETE: its author deletes it (204). */
  post: (postId: string) => `/api/feed/posts/${encodeURIComponent(postId)}`,
  /** PUT: like (idempotent). DELETE: unlike (idempotent). Both answer LikesView. */
  like: (postId: string) => `/api/feed/posts/${encodeURIComponent(postId)}/like`,
  /** POST {text}: comment (answers the CommentView, 201; `removed` set when the filter took it down). */
  comments: (postId: string) => `/api/feed/posts/${encodeURIComponent(postId)}/comments`,
  /** DELETE: its author deletes it (204). */
  comment: (commentId: string) => `/api/feed/comments/${encodeURIComponent(commentId)}`,
  /** POST {text}: reply to a comment (answers the ReplyView, 201). */
  replies: (commentId: string) => `/api/feed/comments/${encodeURIComponent(commentId)}/replies`,
  /** DELETE: its author deletes it (204). */
  reply: (replyId: string) => `/api/feed/replies/${encodeURIComponent(replyId)}`,
  /** GET ?cursor= : one user's posts, newest first. */
  userPosts: (userId: string) => `/api/feed/users/${encodeURIComponent(userId)}/posts`,
  /** GET: another user's public profile (PeerProfile). */
  peer: (userId: string) => `/api/feed/users/${encodeURIComponent(userId)}`,
  /** GET ?cursor= : the signed-in user's own activity. */
  activity: '/api/feed/activity',
  /** POST {explanation}: appeal the removal of one's own comment or reply (by its id). */
  appealRemoval: (id: string) => `/api/feed/removals/${encodeURIComponent(id)}/appeal`,
  /** POST {reason} (admins and moderators): take a comment or reply down (by its id); its author is told why. */
  remove: (id: string) => `/api/dash/feed/removals/${encodeURIComponent(id)}`,
  /** GET (admins and moderators): pending removal appeals, oldest first (DashRemovalAppeal[]). */
  removalAppeals: '/api/dash/feed/removal-appeals',
  /** POST {outcome, note} (admins and moderators): approve (the comment is shown again) or reject an appeal. */
  decideRemovalAppeal: (id: string) => `/api/dash/feed/removal-appeals/${encodeURIComponent(id)}`,
} as const;
