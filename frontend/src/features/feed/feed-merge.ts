import type { CommentView, PostDetail, PostView, Removal, ReplyView } from '@serendip/proto';
import type { SystemPush } from '../system/system-socket';

/** Who is looking: live comments reach admins and everyone else by different events (spec 5, 6). */
export interface Viewer {
  userId: string;
  isAdmin: boolean;
  /** Staff keep a removed comment or reply on the page, marked removed (as its author does). */
  isStaff?: boolean;
}

/** The pushes the feed's pages follow (spec 7). */
export const FEED_PUSH_EVENTS = [
  'newComment',
  'CommentReplyBadWord',
  'newReply',
  'commentDeleted',
  'replyDeleted',
  'postLiked',
  'postUnliked',
  'postDeleted',
] as const;
type FeedPushEvent = (typeof FEED_PUSH_EVENTS)[number];
export type FeedPush = Extract<SystemPush, { event: FeedPushEvent }>;

export function isFeedPush(push: SystemPush): push is FeedPush {
  return (FEED_PUSH_EVENTS as readonly string[]).includes(push.event);
}

/** Taken down by staff (not deleted by its author): a page of its author, or of staff, keeps it marked removed. */
export interface TakenDown {
  viewerId: string;
  viewerIsStaff: boolean;
}

/** What a push means to a page, once spec 5's rules have let it through (or not). */
export type FeedChange =
  | { kind: 'comment-added'; postId: string; comment: CommentView }
  | { kind: 'reply-added'; commentId: string; reply: ReplyView }
  | { kind: 'comment-deleted'; postId: string; commentId: string; removed?: TakenDown }
  | { kind: 'reply-deleted'; commentId: string; replyId: string; removed?: TakenDown }
  | { kind: 'likes'; postId: string; likes: string[]; likeCount: number; likedByMe?: boolean }
  | { kind: 'post-deleted'; postId: string };

const hasId = (value: { _id?: unknown } | null | undefined): boolean =>
  typeof value?._id === 'string' && value._id !== '';

/**
 * spec 5 "Live events": reply or bad-word comment events lacking a reply or comment id are skipped; newComment is
 * taken only by admins, CommentReplyBadWord's comments only by everyone else (each hears of a comment once).
 */
export function changeOf(push: FeedPush, viewer: Viewer): FeedChange | null {
  switch (push.event) {
    case 'newComment': {
      const { postId, comment } = push.payload;
      return viewer.isAdmin && hasId(comment) ? { kind: 'comment-added', postId, comment } : null;
    }
    case 'CommentReplyBadWord': {
      const payload = push.payload;
      if ('reply' in payload) {
        return hasId(payload.reply)
          ? { kind: 'reply-added', commentId: payload.commentId, reply: payload.reply }
          : null;
      }
      return !viewer.isAdmin && hasId(payload.comment)
        ? { kind: 'comment-added', postId: payload.postId, comment: payload.comment }
        : null;
    }
    case 'newReply': {
      const { commentId, reply } = push.payload;
      return hasId(reply) ? { kind: 'reply-added', commentId, reply } : null;
    }
    case 'commentDeleted': {
      const { postId, commentId, removed } = push.payload;
      return { kind: 'comment-deleted', postId, commentId, ...takenDown(removed, viewer) };
    }
    case 'replyDeleted': {
      const { commentId, replyId, removed } = push.payload;
      return { kind: 'reply-deleted', commentId, replyId, ...takenDown(removed, viewer) };
    }
    case 'postLiked':
    case 'postUnliked': {
      const { postId, likes, likeCount, userId } = push.payload;
      // Someone else's like says nothing about mine.
      const mine = userId === viewer.userId ? { likedByMe: push.event === 'postLiked' } : {};
      return { kind: 'likes', postId, likes, likeCount, ...mine };
    }
    case 'postDeleted':
      return { kind: 'post-deleted', postId: push.payload.postId };
    default: {
      const unexpected: never = push;
      throw new Error(`unhandled feed push ${JSON.stringify(unexpected)}`);
    }
  }
}

const takenDown = (removed: true | undefined, viewer: Viewer): { removed?: TakenDown } =>
  removed ? { removed: { viewerId: viewer.userId, viewerIsStaff: viewer.isStaff ?? viewer.isAdmin } } : {};

/** A comment shown as a normal one (not removed): what the comment count counts. */
const counts = (comment: CommentView) => !comment.removed;

/**
 * A list of posts (the feed, a profile's posts). `counted` holds the comments already counted into a post's
 * commentCount here, so a comment heard twice (a repeat, or my own answer and its push) counts once.
 */
export interface PostList {
  posts: PostView[];
  counted: string[];
}

export function applyToList(list: PostList, change: FeedChange): PostList {
  switch (change.kind) {
    case 'comment-added': {
      const { postId, comment } = change;
      if (!list.posts.some((p) => p._id === postId)) return list;
      // A removed one is not in the server's count (spec 3: comments shown, not replies), nor is its later deletion.
      if (!counts(comment)) return { ...list, counted: [...list.counted, `-${comment._id}`] };
      if (list.counted.includes(comment._id)) return list;
      return {
        posts: list.posts.map((p) => (p._id === postId ? { ...p, commentCount: p.commentCount + 1 } : p)),
        // Shown again (an approved appeal): its deletion counts again.
        counted: [...list.counted.filter((id) => id !== `-${comment._id}`), comment._id],
      };
    }
    case 'comment-deleted': {
      const { postId, commentId } = change;
      const counted = `-${commentId}`;
      if (list.counted.includes(counted) || !list.posts.some((p) => p._id === postId)) return list;
      return {
        posts: list.posts.map((p) => (p._id === postId ? { ...p, commentCount: Math.max(0, p.commentCount - 1) } : p)),
        counted: [...list.counted, counted],
      };
    }
    case 'likes':
      return { ...list, posts: list.posts.map((p) => (p._id === change.postId ? withLikes(p, change) : p)) };
    case 'post-deleted':
      return { ...list, posts: list.posts.filter((p) => p._id !== change.postId) };
    case 'reply-added':
    case 'reply-deleted':
      return list;
    default: {
      const unexpected: never = change;
      throw new Error(`unhandled feed change ${JSON.stringify(unexpected)}`);
    }
  }
}

export function withLikes<P extends PostView>(
  post: P,
  { likes, likeCount, likedByMe }: { likes: string[]; likeCount: number; likedByMe?: boolean },
): P {
  return { ...post, likes, likeCount, likedByMe: likedByMe ?? post.likedByMe };
}

/** Adds posts at the end (the next page), leaving out any already listed (a post published meanwhile shifts pages). */
export function appendPosts(list: PostList, more: PostView[]): PostList {
  const listed = new Set(list.posts.map((p) => p._id));
  return { ...list, posts: [...list.posts, ...more.filter((p) => !listed.has(p._id))] };
}

/**
 * One post on its own page, with its comments (oldest first) and their replies; 'gone' once it was deleted (spec 4
 * "Live content merging": added or removed by id, never twice).
 */
export function applyToPost(post: PostDetail, change: FeedChange): PostDetail | 'gone' {
  switch (change.kind) {
    case 'comment-added':
      if (change.postId !== post._id) return post;
      return addComment(post, change.comment);
    case 'reply-added':
      return addReply(post, change.commentId, change.reply);
    case 'comment-deleted': {
      const { commentId, removed } = change;
      if (!post.comments.some((c) => c._id === commentId)) return post;
      const comments = post.comments.flatMap((c) => {
        if (c._id !== commentId) return [c];
        return removed && keeps(removed, c) ? [{ ...c, removed: c.removed ?? removedNow() }] : [];
      });
      return { ...post, comments, commentCount: comments.filter(counts).length };
    }
    case 'reply-deleted': {
      const { commentId, replyId, removed } = change;
      return {
        ...post,
        comments: post.comments.map((c) =>
          c._id === commentId && c.replies.some((r) => r._id === replyId)
            ? {
                ...c,
                replies: c.replies.flatMap((r) => {
                  if (r._id !== replyId) return [r];
                  return removed && keeps(removed, r) ? [{ ...r, removed: r.removed ?? removedNow() }] : [];
                }),
              }
            : c,
        ),
      };
    }
    case 'likes':
      return change.postId === post._id ? withLikes(post, change) : post;
    case 'post-deleted':
      return change.postId === post._id ? 'gone' : post;
    default: {
      const unexpected: never = change;
      throw new Error(`unhandled feed change ${JSON.stringify(unexpected)}`);
    }
  }
}

/** Its author's page and staff's keep what staff took down, marked removed; everyone else's drops it. */
const keeps = (removed: TakenDown, content: { author: { _id: string } }) =>
  removed.viewerIsStaff || content.author._id === removed.viewerId;

/** Why is in its author's notice, not in the push (which goes to all): only that staff took it down. */
const removedNow = (): Removal => ({ by: 'admin', categories: [], at: new Date().toISOString(), appeal: 'none' });

/**
 * A comment, unless one with its id is there already (then the one there is kept, replies and all), or the one there
 * is removed and this one is not: an approved appeal shows it again (spec 5).
 */
export function addComment(post: PostDetail, comment: CommentView): PostDetail {
  const there = post.comments.find((c) => c._id === comment._id);
  if (there && !(there.removed && !comment.removed)) return post;
  const shown = { ...comment, replies: there?.replies ?? comment.replies ?? [] };
  const comments = there
    ? post.comments.map((c) => (c._id === comment._id ? shown : c))
    : [...post.comments, shown].sort(byTime);
  return { ...post, comments, commentCount: comments.filter(counts).length };
}

/** A reply, unless one with its id is there already and is not removed while this one is shown (as addComment). */
export function addReply(post: PostDetail, commentId: string, reply: ReplyView): PostDetail {
  const comment = post.comments.find((c) => c._id === commentId);
  if (!comment) return post;
  const there = comment.replies.find((r) => r._id === reply._id);
  if (there && !(there.removed && !reply.removed)) return post;
  const replies = there
    ? comment.replies.map((r) => (r._id === reply._id ? reply : r))
    : [...comment.replies, reply].sort(byTime);
  return { ...post, comments: post.comments.map((c) => (c._id === commentId ? { ...c, replies } : c)) };
}

// Oldest first; ISO times compare as strings. A live one may overtake one whose answer is still on the way.
const byTime = (a: { createdAt: string }, b: { createdAt: string }) =>
  a.createdAt < b.createdAt ? -1 : a.createdAt > b.createdAt ? 1 : 0;
