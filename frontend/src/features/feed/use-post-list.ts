import type { FeedPage, PostView } from '@serendip/proto';
import { useCallback, useEffect, useState } from 'react';
import { logError } from '../../shared/log';
import { notify } from '../../shared/toasts/notify';
import { feedApi, type FeedApi } from './feed-api';
import { appendPosts, applyToList, type PostList } from './feed-merge';
import { failureText, FEED_TEXTS } from './feed-texts';
import { postActions } from './use-post-actions';
import { useFeedChanges } from './use-feed-live';

export type PostListState =
  | { status: 'loading' }
  | { status: 'failed' }
  | { status: 'loaded'; list: PostList; next?: string; loadingMore: boolean };

/**
 * A page of posts, newest first, with Load more (the `next` cursor), kept live (spec 4 "Live content merging"): likes,
 * comment counts and deletions as they are pushed. `load` names the list (the feed, one user's posts).
 */
export function usePostList(load: (cursor?: string) => Promise<FeedPage>, api: FeedApi = feedApi) {
  const [state, setState] = useState<PostListState>({ status: 'loading' });
  const [attempt, setAttempt] = useState(0);

  useEffect(() => {
    let live = true;
    load().then(
      (page) =>
        live &&
        setState({ status: 'loaded', list: { posts: page.items, counted: [] }, next: page.next, loadingMore: false }),
      (error: unknown) => {
        logError('Posts failed to load', error);
        if (live) setState({ status: 'failed' });
      },
    );
    return () => {
      live = false;
    };
  }, [load, attempt]);

  const change = useCallback((apply: (list: PostList) => PostList) => {
    setState((s) => (s.status === 'loaded' ? { ...s, list: apply(s.list) } : s));
  }, []);

  // Pushes heard while the first page loads are in its answer already (or were before it): only later ones count.
  useFeedChanges((c) => change((list) => applyToList(list, c)));

  const loadMore = async () => {
    if (state.status !== 'loaded' || !state.next || state.loadingMore) return;
    const cursor = state.next;
    setState({ ...state, loadingMore: true });
    try {
      const page = await load(cursor);
      setState((s) =>
        s.status === 'loaded'
          ? { ...s, list: appendPosts(s.list, page.items), next: page.next, loadingMore: false }
          : s,
      );
    } catch (error) {
      logError('More posts failed to load', error);
      notify.error(failureText(error, FEED_TEXTS.loadFailed));
      setState((s) => (s.status === 'loaded' ? { ...s, loadingMore: false } : s));
    }
  };

  const actions = postActions(api, {
    likes: (view) => change((list) => applyToList(list, { kind: 'likes', ...view })),
    deleted: (postId) => change((list) => applyToList(list, { kind: 'post-deleted', postId })),
  });

  return {
    state,
    retry: () => {
      setState({ status: 'loading' });
      setAttempt((n) => n + 1);
    },
    loadMore,
    /** My own post, just published: at the top (once, should it be listed already). */
    prepend: (post: PostView) =>
      change((list) => (list.posts.some((p) => p._id === post._id) ? list : { ...list, posts: [post, ...list.posts] })),
    like: actions.like,
    remove: actions.delete,
  };
}
