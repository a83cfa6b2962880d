import type { CommentView, PostDetail, Removal, ReplyView } from '@serendip/proto';
import { useCallback, useEffect, useState } from 'react';
import { isHttpError } from '../../shared/http/http-error';
import { logError } from '../../shared/log';
import { notify } from '../../shared/toasts/notify';
import { feedApi, type FeedApi } from './feed-api';
import { addComment, addReply, applyToPost, type FeedChange } from './feed-merge';
import { failureText, FEED_TEXTS } from './feed-texts';
import { postActions } from './use-post-actions';
import { useFeedChanges } from './use-feed-live';

export type PostDetailState =
  | { status: 'loading'; heard: FeedChange[] }
  | { status: 'failed' }
  | { status: 'gone' }
  | { status: 'loaded'; post: PostDetail };

/** Its author's removed comment or reply, with how its appeal stands. */
function withAppeal(post: PostDetail, id: string, appeal: Removal['appeal']): PostDetail {
  const marked = <C extends CommentView | ReplyView>(c: C): C =>
    c._id === id && c.removed ? { ...c, removed: { ...c.removed, appeal } } : c;
  return { ...post, comments: post.comments.map((c) => ({ ...marked(c), replies: c.replies.map(marked) })) };
}

const gone = (error: unknown) => isHttpError(error) && error.status === 404;

/**
 * One post with its comments and replies, kept live (spec 4 "Live content merging", spec 5): every comment, reply and
 * deletion is merged by id, so my own comment's answer and its push show it once. Changes heard while the post loads
 * are merged into the answer (by id too); likes are not, the answer's count being as new.
 */
export function usePostDetail(postId: string, api: FeedApi = feedApi) {
  const [state, setState] = useState<PostDetailState>({ status: 'loading', heard: [] });
  const [attempt, setAttempt] = useState(0);

  useEffect(() => {
    let live = true;
    api.post(postId).then(
      (post) =>
        live &&
        setState((s) => {
          const heard = s.status === 'loading' ? s.heard.filter((c) => c.kind !== 'likes') : [];
          const merged = heard.reduce<PostDetail | 'gone'>((p, c) => (p === 'gone' ? p : applyToPost(p, c)), post);
          return merged === 'gone' ? { status: 'gone' } : { status: 'loaded', post: merged };
        }),
      (error: unknown) => {
        if (!live) return;
        if (gone(error)) return setState({ status: 'gone' });
        logError('Post failed to load', error);
        setState({ status: 'failed' });
      },
    );
    return () => {
      live = false;
    };
  }, [postId, api, attempt]);

  const apply = useCallback((change: (post: PostDetail) => PostDetail | 'gone') => {
    setState((s) => {
      if (s.status !== 'loaded') return s;
      const next = change(s.post);
      return next === 'gone' ? { status: 'gone' } : { status: 'loaded', post: next };
    });
  }, []);

  useFeedChanges((change) =>
    setState((s) => {
      if (s.status === 'loading') return { ...s, heard: [...s.heard, change] };
      if (s.status !== 'loaded') return s;
      const next = applyToPost(s.post, change);
      return next === 'gone' ? { status: 'gone' } : { status: 'loaded', post: next };
    }),
  );

  /** A call about this post failed: a 404 that names the post means it is gone; anything else is said in a toast. */
  const failed = (error: unknown, fallback: string) => {
    logError(fallback, error);
    const text = failureText(error, fallback);
    if (gone(error) && text === FEED_TEXTS.postGone) setState({ status: 'gone' });
    notify.error(text);
  };

  const posts = postActions(api, {
    likes: (view) => apply((post) => applyToPost(post, { kind: 'likes', ...view })),
    deleted: () => setState({ status: 'gone' }),
  });

  return {
    state,
    retry: () => {
      setState({ status: 'loading', heard: [] });
      setAttempt((n) => n + 1);
    },
    like: posts.like,
    deletePost: posts.delete,
    async comment(text: string): Promise<boolean> {
      try {
        const comment = await api.comment(postId, text);
        apply((post) => addComment(post, comment));
        return true;
      } catch (error) {
        failed(error, 'Your comment could not be posted.');
        return false;
      }
    },
    async reply(commentId: string, text: string): Promise<boolean> {
      try {
        const reply = await api.reply(commentId, text);
        apply((post) => addReply(post, commentId, reply));
        return true;
      } catch (error) {
        failed(error, 'Your reply could not be posted.');
        return false;
      }
    },
    async deleteComment(comment: CommentView) {
      try {
        await api.deleteComment(comment._id);
        notify.success(FEED_TEXTS.deletedComment);
      } catch (error) {
        if (!gone(error)) return failed(error, 'The comment could not be deleted.');
      }
      apply((post) => applyToPost(post, { kind: 'comment-deleted', postId, commentId: comment._id }));
    },
    /** Staff took it down: it stays on staff's page marked removed, as the push says (spec 5). */
    removed(content: { kind: 'comment' | 'reply'; id: string; commentId: string }) {
      const removed = { viewerId: '', viewerIsStaff: true };
      apply((post) =>
        applyToPost(
          post,
          content.kind === 'comment'
            ? { kind: 'comment-deleted', postId, commentId: content.id, removed }
            : { kind: 'reply-deleted', commentId: content.commentId, replyId: content.id, removed },
        ),
      );
    },
    /** The author appeals their removed comment or reply (once, spec 5); then it says 'Appeal sent'. */
    async appeal(content: { kind: 'comment' | 'reply'; id: string; commentId: string }, explanation: string) {
      try {
        await api.appealRemoval(content.id, explanation);
      } catch (error) {
        logError('Comment appeal failed', error);
        notify.error(failureText(error, FEED_TEXTS.appealFailed));
        return false;
      }
      notify.success(FEED_TEXTS.appealSent);
      apply((post) => withAppeal(post, content.id, 'pending'));
      return true;
    },
    async deleteReply(reply: ReplyView) {
      try {
        await api.deleteReply(reply._id);
        notify.success(FEED_TEXTS.deletedReply);
      } catch (error) {
        if (!gone(error)) return failed(error, 'The reply could not be deleted.');
      }
      apply((post) => applyToPost(post, { kind: 'reply-deleted', commentId: reply.commentId, replyId: reply._id }));
    },
  };
}
