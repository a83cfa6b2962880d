import type { PostView } from '@serendip/proto';
import { Flag, Heart, MessageCircle, Trash2 } from 'lucide-react';
import { useState } from 'react';
import { Link } from 'react-router';
import { Button } from '../../ui/Button';
import { AuthorLine } from './AuthorLine';
import { ConfirmDelete } from './ConfirmDelete';
import { FEED_ROUTES } from './feed-paths';
import { ReportContentDialog } from './ReportContentDialog';
import { commentsText, FEED_TEXTS, likesText } from './feed-texts';

interface PostCardProps {
  post: PostView;
  viewerId: string;
  onLike: (post: PostView) => Promise<void>;
  onDelete: (post: PostView) => Promise<void>;
  /** On the post's own page the comment count is no link. */
  linkComments?: boolean;
}

/** One post: who, when, the text, likes (spec 3: a count the server keeps) and comments; Delete for its author. */
export function PostCard({ post, viewerId, onLike, onDelete, linkComments = true }: PostCardProps) {
  const [liking, setLiking] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const [reporting, setReporting] = useState(false);
  const mine = post.author._id === viewerId;
  const like = async () => {
    setLiking(true);
    await onLike(post);
    setLiking(false);
  };
  return (
    <article className="feed-post" aria-label={`Post by ${post.author.firstName}`} data-post-id={post._id}>
      <AuthorLine author={post.author} viewerId={viewerId} at={post.createdAt} />
      {post.text && <p className="feed-post__text">{post.text}</p>}
      {post.image && (
        <img
          className="feed-post__image"
          src={post.image}
          alt={`Picture posted by ${post.author.firstName}`}
          loading="lazy"
        />
      )}
      <div className="feed-post__actions">
        <Button
          variant="ghost"
          size="sm"
          className="feed-post__like"
          aria-pressed={post.likedByMe}
          disabled={liking}
          onClick={() => void like()}
        >
          <Heart aria-hidden="true" fill={post.likedByMe ? 'currentColor' : 'none'} /> Like
        </Button>
        <span className="feed-post__count" data-testid="like-count">
          {likesText(post.likeCount)}
        </span>
        {linkComments ? (
          <Link className="feed-post__comments" to={FEED_ROUTES.post(post._id)}>
            <MessageCircle aria-hidden="true" /> {commentsText(post.commentCount)}
          </Link>
        ) : (
          <span className="feed-post__comments">
            <MessageCircle aria-hidden="true" /> {commentsText(post.commentCount)}
          </span>
        )}
        {mine ? (
          <Button variant="ghost" size="sm" className="feed-post__end" onClick={() => setConfirming(true)}>
            <Trash2 aria-hidden="true" /> Delete
          </Button>
        ) : (
          <Button
            variant="ghost"
            size="sm"
            className="feed-post__end"
            aria-haspopup="dialog"
            onClick={() => setReporting(true)}
          >
            <Flag aria-hidden="true" /> Report
          </Button>
        )}
      </div>
      {reporting && (
        <ReportContentDialog
          content={{ kind: 'post', id: post._id, authorName: post.author.firstName }}
          onClose={() => setReporting(false)}
        />
      )}
      {confirming && (
        <ConfirmDelete
          title={FEED_TEXTS.confirmDeletePost}
          text={FEED_TEXTS.confirmDeletePostText}
          onCancel={() => setConfirming(false)}
          onConfirm={() => {
            setConfirming(false);
            void onDelete(post);
          }}
        />
      )}
    </article>
  );
}
