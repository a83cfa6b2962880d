import type { CommentView, FeedAuthor, PostDetail, PostView, ReplyView } from '@serendip/proto';

/** Test-only: the feed's views as the server answers them. */

export const ADA: FeedAuthor = { _id: 'user-1', firstName: 'Ada', avatar: null, isAdmin: false };
export const BOB: FeedAuthor = { _id: 'bob-id', firstName: 'Bob', avatar: null, isAdmin: false };
export const ROOT: FeedAuthor = { _id: 'root-id', firstName: 'Root', avatar: null, isAdmin: true };

export function aPost(overrides: Partial<PostView> = {}): PostView {
  return {
    _id: 'post-1',
    author: BOB,
    text: 'Sunset over the harbour tonight.',
    createdAt: '2026-11-26T09:00:00.000Z',
    likes: [],
    likeCount: 0,
    likedByMe: false,
    commentCount: 0,
    ...overrides,
  };
}

export function aPostDetail(overrides: Partial<PostDetail> = {}): PostDetail {
  return { ...aPost(), comments: [], ...overrides };
}

export function aComment(overrides: Partial<CommentView> = {}): CommentView {
  return {
    _id: 'comment-1',
    postId: 'post-1',
    author: ADA,
    text: 'Beautiful!',
    createdAt: '2026-11-26T09:05:00.000Z',
    replies: [],
    ...overrides,
  };
}

export function aReply(overrides: Partial<ReplyView> = {}): ReplyView {
  return {
    _id: 'reply-1',
    commentId: 'comment-1',
    postId: 'post-1',
    author: BOB,
    text: 'Thanks!',
    createdAt: '2026-11-26T09:06:00.000Z',
    ...overrides,
  };
}
