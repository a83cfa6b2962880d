import { FEED_LIMITS } from '@serendip/proto';
import { ArrowLeft, RotateCw } from 'lucide-react';
import { Link, useParams } from 'react-router';
import { CommentThread } from '../../features/feed/CommentThread';
import { Composer } from '../../features/feed/Composer';
import { FEED_ROUTES } from '../../features/feed/feed-paths';
import { FEED_TEXTS } from '../../features/feed/feed-texts';
import { PostCard } from '../../features/feed/PostCard';
import { useViewer } from '../../features/feed/use-feed-live';
import { usePostDetail } from '../../features/feed/use-post-detail';
import { useDocumentTitle } from '../../shared/use-document-title';
import { Button } from '../../ui/Button';
import { Spinner } from '../../ui/Spinner';
import '../../features/feed/feed.css';

/** `/feed/post/:postId` (spec 2 "single-post view"): the post, its comments and their replies, live (spec 4, 5). */
export function PostPage() {
  const { postId = '' } = useParams();
  // Keyed: another post (a notification's link) starts afresh.
  return <SinglePost key={postId} postId={postId} />;
}

function SinglePost({ postId }: { postId: string }) {
  useDocumentTitle('Post');
  const viewer = useViewer();
  const detail = usePostDetail(postId);
  const { state } = detail;

  return (
    <section className="feed-page" aria-label="Post" aria-busy={state.status === 'loading'}>
      <Link className="feed-back" to={FEED_ROUTES.feed}>
        <ArrowLeft aria-hidden="true" /> Feed
      </Link>
      {state.status === 'loading' && <Spinner className="feed-state" label="Loading the post" />}
      {state.status === 'failed' && (
        <div className="feed-state" role="alert">
          <p>{FEED_TEXTS.postFailed}</p>
          <Button variant="quiet" size="sm" onClick={detail.retry}>
            <RotateCw aria-hidden="true" /> Try again
          </Button>
        </div>
      )}
      {state.status === 'gone' && (
        <div className="feed-state" role="status">
          <p>{FEED_TEXTS.postGone}</p>
          <Link to={FEED_ROUTES.feed}>Back to the feed</Link>
        </div>
      )}
      {state.status === 'loaded' && (
        <>
          <PostCard
            post={state.post}
            viewerId={viewer.userId}
            onLike={detail.like}
            onDelete={detail.deletePost}
            linkComments={false}
          />
          <section className="feed-card feed-comments" aria-labelledby="comments-title">
            <h2 id="comments-title" className="feed-comments__title">
              Comments
            </h2>
            <Composer
              label={FEED_TEXTS.commentLabel}
              limit={FEED_LIMITS.comment}
              submitLabel="Comment"
              rows={2}
              onSubmit={detail.comment}
            />
            {state.post.comments.length === 0 ? (
              <p className="feed-state feed-state--inline">{FEED_TEXTS.noComments}</p>
            ) : (
              <ul className="feed-comments__list" aria-label="Comments, oldest first">
                {state.post.comments.map((comment) => (
                  <li key={comment._id}>
                    <CommentThread
                      comment={comment}
                      viewerId={viewer.userId}
                      onReply={detail.reply}
                      onDeleteComment={detail.deleteComment}
                      onDeleteReply={detail.deleteReply}
                      canRemove={viewer.isStaff}
                      onRemoved={detail.removed}
                      onAppeal={detail.appeal}
                    />
                  </li>
                ))}
              </ul>
            )}
          </section>
        </>
      )}
    </section>
  );
}
