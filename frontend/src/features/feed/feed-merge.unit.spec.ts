import type { CommentView, PostDetail, Removal, ReplyView } from '@serendip/proto';
import { describe, expect, it } from 'vitest';
import type { SystemPush } from '../system/system-socket';
import { ADA, aComment, aPost, aPostDetail, aReply, BOB } from './feed-test-support';
import {
  appendPosts,
  applyToList,
  applyToPost,
  changeOf,
  type FeedPush,
  isFeedPush,
  type PostList,
  type Viewer,
} from './feed-merge';

const USER: Viewer = { userId: 'user-1', isAdmin: false };
const ADMIN: Viewer = { userId: 'root-id', isAdmin: true };

let serial = 0;
const push = (event: FeedPush['event'], payload: object): FeedPush =>
  ({ event, payload: { ...payload, eventId: `e-${(serial += 1)}` } }) as FeedPush;

/** given a post page, when these pushes arrive (as `viewer`), then what it shows. */
function givenPost(post: PostDetail, viewer: Viewer = USER) {
  return {
    when: (...pushes: FeedPush[]) =>
      pushes.reduce<PostDetail | 'gone'>((p, each) => {
        const change = changeOf(each, viewer);
        return p === 'gone' || !change ? p : applyToPost(p, change);
      }, post),
  };
}

const commentsOf = (post: PostDetail | 'gone') => (post === 'gone' ? 'gone' : post.comments.map((c) => c._id));
const repliesOf = (post: PostDetail | 'gone', commentId: string) =>
  post === 'gone' ? 'gone' : post.comments.find((c) => c._id === commentId)?.replies.map((r) => r._id);

describe('live comments and replies (spec 4 "Live content merging", spec 5 "Live events")', () => {
  const comment = aComment({ _id: 'c-new', createdAt: '2026-11-26T09:10:00.000Z' });

  it('a user takes a comment from CommentReplyBadWord, never from newComment', () => {
    expect(commentsOf(givenPost(aPostDetail()).when(push('newComment', { postId: 'post-1', comment })))).toEqual([]);
    const shown = givenPost(aPostDetail()).when(push('CommentReplyBadWord', { postId: 'post-1', comment }));
    expect(commentsOf(shown)).toEqual(['c-new']);
    expect(shown !== 'gone' && shown.commentCount).toBe(1);
  });

  it('an admin takes a comment from newComment, never from CommentReplyBadWord', () => {
    expect(
      commentsOf(givenPost(aPostDetail(), ADMIN).when(push('CommentReplyBadWord', { postId: 'post-1', comment }))),
    ).toEqual([]);
    expect(commentsOf(givenPost(aPostDetail(), ADMIN).when(push('newComment', { postId: 'post-1', comment })))).toEqual(
      ['c-new'],
    );
  });

  it('skips comment and reply events without their id', () => {
    const noId = { ...comment, _id: undefined } as unknown as CommentView;
    const noReplyId = { ...aReply(), _id: '' } as ReplyView;
    const post = aPostDetail({ comments: [aComment()] });
    expect(commentsOf(givenPost(post).when(push('CommentReplyBadWord', { postId: 'post-1', comment: noId })))).toEqual([
      'comment-1',
    ]);
    expect(
      commentsOf(givenPost(post, ADMIN).when(push('newComment', { postId: 'post-1', comment: null as never }))),
    ).toEqual(['comment-1']);
    expect(
      repliesOf(givenPost(post).when(push('newReply', { commentId: 'comment-1', reply: noReplyId })), 'comment-1'),
    ).toEqual([]);
    expect(
      repliesOf(
        givenPost(post).when(push('CommentReplyBadWord', { commentId: 'comment-1', reply: noReplyId })),
        'comment-1',
      ),
    ).toEqual([]);
  });

  it('shows a comment heard twice once (my own answer, then its push; or a repeat under another event id)', () => {
    const mine = aPostDetail({ comments: [comment] });
    const shown = givenPost(mine).when(
      push('CommentReplyBadWord', { postId: 'post-1', comment }),
      push('CommentReplyBadWord', { postId: 'post-1', comment: { ...comment, text: 'edited?' } }),
    );
    expect(commentsOf(shown)).toEqual(['c-new']);
    expect(shown !== 'gone' && shown.comments[0]!.text).toBe('Beautiful!');
  });

  it('keeps comments oldest first, whatever order they are heard in', () => {
    const later = aComment({ _id: 'c-2', createdAt: '2026-11-26T09:20:00.000Z' });
    const earlier = aComment({ _id: 'c-1', createdAt: '2026-11-26T09:15:00.000Z' });
    expect(
      commentsOf(
        givenPost(aPostDetail()).when(
          push('CommentReplyBadWord', { postId: 'post-1', comment: later }),
          push('CommentReplyBadWord', { postId: 'post-1', comment: earlier }),
        ),
      ),
    ).toEqual(['c-1', 'c-2']);
  });

  it("ignores another post's comments", () => {
    expect(
      commentsOf(
        givenPost(aPostDetail()).when(
          push('CommentReplyBadWord', { postId: 'post-2', comment: { ...comment, postId: 'post-2' } }),
        ),
      ),
    ).toEqual([]);
  });

  it('adds a reply to its comment once, from newReply or CommentReplyBadWord, for users and admins', () => {
    const reply = aReply({ _id: 'r-1' });
    for (const viewer of [USER, ADMIN]) {
      const post = aPostDetail({ comments: [aComment()] });
      const shown = givenPost(post, viewer).when(
        push('newReply', { commentId: 'comment-1', reply }),
        push('CommentReplyBadWord', { commentId: 'comment-1', reply }),
      );
      expect(repliesOf(shown, 'comment-1')).toEqual(['r-1']);
    }
    // A reply to a comment this page does not show is dropped.
    expect(commentsOf(givenPost(aPostDetail()).when(push('newReply', { commentId: 'other', reply })))).toEqual([]);
  });

  it('removes a deleted comment with its replies, and a deleted reply; a repeat changes nothing', () => {
    const post = aPostDetail({
      commentCount: 2,
      comments: [
        aComment({ replies: [aReply({ _id: 'r-1' }), aReply({ _id: 'r-2' })] }),
        aComment({ _id: 'comment-2', createdAt: '2026-11-26T09:30:00.000Z' }),
      ],
    });
    const shown = givenPost(post).when(
      push('replyDeleted', { postId: 'post-1', commentId: 'comment-1', replyId: 'r-1' }),
      push('commentDeleted', { postId: 'post-1', commentId: 'comment-2' }),
      push('commentDeleted', { postId: 'post-1', commentId: 'comment-2' }),
    );
    expect(commentsOf(shown)).toEqual(['comment-1']);
    expect(repliesOf(shown, 'comment-1')).toEqual(['r-2']);
    expect(shown !== 'gone' && shown.commentCount).toBe(1);
  });

  it('a deleted post is gone', () => {
    expect(givenPost(aPostDetail()).when(push('postDeleted', { postId: 'post-1' }))).toBe('gone');
    expect(givenPost(aPostDetail()).when(push('postDeleted', { postId: 'post-2' }))).not.toBe('gone');
  });

  it('does not count a removed comment (its author and admins see it greyed)', () => {
    const removed = aComment({
      _id: 'c-bad',
      removed: { by: 'filter', categories: ['Profanity'], at: '2026-11-26T09:11:00Z', appeal: 'none' },
    });
    const shown = givenPost(aPostDetail(), ADMIN).when(push('newComment', { postId: 'post-1', comment: removed }));
    expect(commentsOf(shown)).toEqual(['c-bad']);
    expect(shown !== 'gone' && shown.commentCount).toBe(0);
  });
});

describe('removed and restored live (spec 5: a removal and its appeal)', () => {
  const FILTERED: Removal = { by: 'filter', categories: ['Profanity'], at: '2026-11-26T09:11:00Z', appeal: 'pending' };
  const STAFF: Viewer = { userId: 'mod-id', isAdmin: false, isStaff: true };
  const removedOf = (post: PostDetail | 'gone', commentId: string) =>
    post === 'gone' ? 'gone' : post.comments.find((c) => c._id === commentId)?.removed;

  it('an approved appeal shows my removed comment again, replies kept, counted again', () => {
    const mine = aComment({ _id: 'c-mine', removed: FILTERED, replies: [aReply({ commentId: 'c-mine' })] });
    const post = aPostDetail({ comments: [mine], commentCount: 0 });
    const shown = givenPost(post).when(
      push('CommentReplyBadWord', { postId: 'post-1', comment: { ...mine, removed: undefined, replies: [] } }),
    );
    expect(removedOf(shown, 'c-mine')).toBeUndefined();
    expect(repliesOf(shown, 'c-mine')).toEqual(['reply-1']);
    expect(shown !== 'gone' && shown.commentCount).toBe(1);
    // A removed copy heard after the shown one changes nothing.
    const again = givenPost(shown as PostDetail).when(push('CommentReplyBadWord', { postId: 'post-1', comment: mine }));
    expect(removedOf(again, 'c-mine')).toBeUndefined();
  });

  it('an approved appeal shows my removed reply again', () => {
    const reply = aReply({ _id: 'r-mine', author: ADA, removed: FILTERED });
    const post = aPostDetail({ comments: [aComment({ author: BOB, replies: [reply] })] });
    const shown = givenPost(post).when(
      push('newReply', { postId: 'post-1', commentId: 'comment-1', reply: { ...reply, removed: undefined } }),
    );
    expect(shown !== 'gone' && shown.comments[0]?.replies.map((r) => [r._id, r.removed])).toEqual([
      ['r-mine', undefined],
    ]);
  });

  it("staff's takedown marks my own comment or reply removed, and staff's page keeps it; others drop it", () => {
    const post = aPostDetail({
      commentCount: 2,
      comments: [
        aComment({ _id: 'c-ada', author: ADA, replies: [aReply({ _id: 'r-ada', commentId: 'c-ada', author: ADA })] }),
        aComment({ _id: 'c-bob', author: BOB, createdAt: '2026-11-26T09:07:00.000Z' }),
      ],
    });
    const takedowns = [
      push('replyDeleted', { postId: 'post-1', commentId: 'c-ada', replyId: 'r-ada', removed: true }),
      push('commentDeleted', { postId: 'post-1', commentId: 'c-ada', removed: true }),
      push('commentDeleted', { postId: 'post-1', commentId: 'c-bob', removed: true }),
    ];

    const adaSees = givenPost(post).when(...takedowns);
    expect(commentsOf(adaSees)).toEqual(['c-ada']);
    expect(removedOf(adaSees, 'c-ada')).toMatchObject({ by: 'admin', categories: [], appeal: 'none' });
    expect(adaSees !== 'gone' && adaSees.comments[0]?.replies[0]?.removed?.categories).toEqual([]);
    expect(adaSees !== 'gone' && adaSees.commentCount).toBe(0);

    const staffSees = givenPost(post, STAFF).when(...takedowns);
    expect(commentsOf(staffSees)).toEqual(['c-ada', 'c-bob']);
    expect(removedOf(staffSees, 'c-bob')).toMatchObject({ by: 'admin' });

    const carlSees = givenPost(post, { userId: 'carl-id', isAdmin: false }).when(...takedowns);
    expect(commentsOf(carlSees)).toEqual([]);
    // Deleted by its author: gone from its author's page too.
    expect(commentsOf(givenPost(post).when(push('commentDeleted', { postId: 'post-1', commentId: 'c-ada' })))).toEqual([
      'c-bob',
    ]);
  });
});

describe('live likes (spec 1 "like counts", spec 7 postLiked/postUnliked)', () => {
  it('takes the count and likers; likedByMe changes only when the like was mine', () => {
    const post = aPostDetail({ likedByMe: true, likeCount: 1, likes: ['user-1'] });
    const byBob = givenPost(post).when(
      push('postLiked', { postId: 'post-1', likes: ['bob-id', 'user-1'], likeCount: 2, userId: 'bob-id' }),
    );
    expect(byBob !== 'gone' && [byBob.likeCount, byBob.likedByMe]).toEqual([2, true]);
    const iTookMineBack = givenPost(post).when(
      push('postUnliked', { postId: 'post-1', likes: [], likeCount: 0, userId: 'user-1' }),
    );
    expect(iTookMineBack !== 'gone' && [iTookMineBack.likeCount, iTookMineBack.likedByMe]).toEqual([0, false]);
  });
});

describe('a list of posts, live', () => {
  const given = (list: PostList, viewer: Viewer = USER) => ({
    when: (...pushes: FeedPush[]) =>
      pushes.reduce((l, each) => {
        const change = changeOf(each, viewer);
        return change ? applyToList(l, change) : l;
      }, list),
  });
  const list: PostList = { posts: [aPost({ commentCount: 1 }), aPost({ _id: 'post-2' })], counted: [] };

  it('counts a new comment once, and a deletion once', () => {
    const comment = aComment({ _id: 'c-9' });
    const after = given(list).when(
      push('CommentReplyBadWord', { postId: 'post-1', comment }),
      push('CommentReplyBadWord', { postId: 'post-1', comment }),
    );
    expect(after.posts.map((p) => p.commentCount)).toEqual([2, 0]);
    const deleted = given(after).when(
      push('commentDeleted', { postId: 'post-1', commentId: 'c-9' }),
      push('commentDeleted', { postId: 'post-1', commentId: 'c-9' }),
    );
    expect(deleted.posts.map((p) => p.commentCount)).toEqual([1, 0]);
  });

  it('counts comments as a reload does: not replies, not removed ones; one taken down or restored moves it by one', () => {
    const removed = aComment({
      _id: 'c-bad',
      removed: { by: 'filter', categories: ['Profanity'], at: '2026-11-26T09:11:00Z', appeal: 'none' },
    });
    const after = given(list, ADMIN).when(
      push('newReply', { postId: 'post-1', commentId: 'comment-1', reply: aReply() }),
      push('newComment', { postId: 'post-1', comment: removed }),
      // Its author deletes the removed one: it was never counted.
      push('commentDeleted', { postId: 'post-1', commentId: 'c-bad' }),
      push('newComment', { postId: 'post-1', comment: aComment({ _id: 'c-ok' }) }),
      push('commentDeleted', { postId: 'post-1', commentId: 'c-ok', removed: true }),
    );
    expect(after.posts.map((p) => p.commentCount)).toEqual([1, 0]);
    const restored = given(list).when(
      push('CommentReplyBadWord', { postId: 'post-1', comment: removed }),
      push('CommentReplyBadWord', { postId: 'post-1', comment: { ...removed, removed: undefined } }),
      push('commentDeleted', { postId: 'post-1', commentId: 'c-bad' }),
    );
    expect(restored.posts.map((p) => p.commentCount)).toEqual([1, 0]);
  });

  it("updates a post's likes and drops a deleted post", () => {
    const after = given(list).when(
      push('postLiked', { postId: 'post-2', likes: ['bob-id'], likeCount: 1, userId: 'bob-id' }),
      push('postDeleted', { postId: 'post-1' }),
    );
    expect(after.posts.map((p) => [p._id, p.likeCount, p.likedByMe])).toEqual([['post-2', 1, false]]);
  });

  it('appends the next page without repeating a post already listed', () => {
    expect(appendPosts(list, [aPost({ _id: 'post-2' }), aPost({ _id: 'post-3' })]).posts.map((p) => p._id)).toEqual([
      'post-1',
      'post-2',
      'post-3',
    ]);
  });

  it('follows only the feed events', () => {
    const notification = { event: 'onlineCount', payload: { count: 3, eventId: 'x' } } as SystemPush;
    expect(isFeedPush(notification)).toBe(false);
    expect(isFeedPush(push('postDeleted', { postId: 'p' }))).toBe(true);
  });
});
