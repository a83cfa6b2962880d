import { RotateCw } from 'lucide-react';
import { Button } from '../../ui/Button';
import { Spinner } from '../../ui/Spinner';
import { PostCard } from './PostCard';
import { FEED_TEXTS } from './feed-texts';
import type { usePostList } from './use-post-list';

/** A list of posts in its states: loading, could not load (Try again), empty, the posts with Load more. */
export function PostList({
  posts,
  viewerId,
  empty,
  label,
}: {
  posts: ReturnType<typeof usePostList>;
  viewerId: string;
  /** What an empty list says, true of this list. */
  empty: string;
  label: string;
}) {
  const { state } = posts;
  if (state.status === 'loading') return <Spinner className="feed-state" label="Loading posts" />;
  if (state.status === 'failed') {
    return (
      <div className="feed-state" role="alert">
        <p>{FEED_TEXTS.loadFailed}</p>
        <Button variant="quiet" size="sm" onClick={posts.retry}>
          <RotateCw aria-hidden="true" /> Try again
        </Button>
      </div>
    );
  }
  if (state.list.posts.length === 0) return <p className="feed-state">{empty}</p>;
  return (
    <>
      <ul className="feed-list" aria-label={label}>
        {state.list.posts.map((post) => (
          <li key={post._id}>
            <PostCard post={post} viewerId={viewerId} onLike={posts.like} onDelete={posts.remove} />
          </li>
        ))}
      </ul>
      {state.next && (
        <Button className="feed-more" variant="quiet" busy={state.loadingMore} onClick={() => void posts.loadMore()}>
          {state.loadingMore ? 'Loading…' : 'Load more'}
        </Button>
      )}
    </>
  );
}
