import { type CommentView, FEED_LIMITS, type Removal, type ReplyView } from '@serendip/proto';
import { Flag, Reply as ReplyIcon, Scale, ShieldX, Trash2 } from 'lucide-react';
import { useState } from 'react';
import { Button } from '../../ui/Button';
import { AppealRemovalDialog } from './AppealRemovalDialog';
import { AuthorLine } from './AuthorLine';
import { Composer } from './Composer';
import { ConfirmDelete } from './ConfirmDelete';
import { FEED_TEXTS } from './feed-texts';
import { type RemovedContent, RemoveContentDialog } from './RemoveContentDialog';
import { ReportContentDialog, type ReportedContent } from './ReportContentDialog';

interface CommentThreadProps {
  comment: CommentView;
  viewerId: string;
  onReply: (commentId: string, text: string) => Promise<boolean>;
  onDeleteComment: (comment: CommentView) => Promise<void>;
  onDeleteReply: (reply: ReplyView) => Promise<void>;
  /** Staff may take others' words down (with a reason); `onRemoved` once the server took it. */
  canRemove?: boolean;
  onRemoved?: (content: RemovedContent & { commentId: string }) => void;
  /** The author appeals their removed comment or reply (spec 5, once); says whether it was taken. */
  onAppeal?: (content: AppealedContent, explanation: string) => Promise<boolean>;
}

export interface AppealedContent {
  kind: 'comment' | 'reply';
  id: string;
  commentId: string;
}

type Deleting = { kind: 'comment' } | { kind: 'reply'; reply: ReplyView } | null;

/**
 * A comment and its replies, oldest first (spec 3). A removed one (only its author and admins get it) shows greyed with
 * why, instead of vanishing from under its author.
 */
export function CommentThread({
  comment,
  viewerId,
  onReply,
  onDeleteComment,
  onDeleteReply,
  canRemove = false,
  onRemoved,
  onAppeal,
}: CommentThreadProps) {
  const [replying, setReplying] = useState(false);
  const [deleting, setDeleting] = useState<Deleting>(null);
  const [reporting, setReporting] = useState<ReportedContent | null>(null);
  const [removing, setRemoving] = useState<RemovedContent | null>(null);
  const [appealing, setAppealing] = useState<AppealedContent | null>(null);
  const appealable = (kind: 'comment' | 'reply', content: CommentView | ReplyView) =>
    onAppeal && content.author._id === viewerId
      ? () => setAppealing({ kind, id: content._id, commentId: comment._id })
      : undefined;
  return (
    <article
      className={comment.removed ? 'feed-comment is-removed' : 'feed-comment'}
      aria-label={`Comment by ${comment.author.firstName}`}
      data-comment-id={comment._id}
    >
      <AuthorLine author={comment.author} viewerId={viewerId} at={comment.createdAt} size="sm" />
      <p className="feed-comment__text">{comment.text}</p>
      {comment.removed && <RemovedNote removal={comment.removed} onAppeal={appealable('comment', comment)} />}
      <div className="feed-comment__actions">
        {!comment.removed && (
          <Button variant="ghost" size="sm" aria-expanded={replying} onClick={() => setReplying((r) => !r)}>
            <ReplyIcon aria-hidden="true" /> Reply
          </Button>
        )}
        {comment.author._id === viewerId ? (
          <Button variant="ghost" size="sm" onClick={() => setDeleting({ kind: 'comment' })}>
            <Trash2 aria-hidden="true" /> Delete
          </Button>
        ) : (
          !comment.removed && (
            <Button
              variant="ghost"
              size="sm"
              aria-haspopup="dialog"
              onClick={() => setReporting({ kind: 'comment', id: comment._id, authorName: comment.author.firstName })}
            >
              <Flag aria-hidden="true" /> Report
            </Button>
          )
        )}
        {canRemove && comment.author._id !== viewerId && !comment.removed && (
          <Button
            variant="ghost"
            size="sm"
            aria-haspopup="dialog"
            onClick={() => setRemoving({ kind: 'comment', id: comment._id, authorName: comment.author.firstName })}
          >
            <ShieldX aria-hidden="true" /> Remove
          </Button>
        )}
      </div>
      {comment.replies.length > 0 && (
        <ul className="feed-replies" aria-label={`Replies to ${comment.author.firstName}`}>
          {comment.replies.map((reply) => (
            <li
              key={reply._id}
              className={reply.removed ? 'feed-reply is-removed' : 'feed-reply'}
              data-reply-id={reply._id}
            >
              <AuthorLine author={reply.author} viewerId={viewerId} at={reply.createdAt} size="sm" />
              <p className="feed-comment__text">{reply.text}</p>
              {reply.removed && <RemovedNote removal={reply.removed} onAppeal={appealable('reply', reply)} />}
              {reply.author._id === viewerId ? (
                <div className="feed-comment__actions">
                  <Button
                    variant="ghost"
                    size="sm"
                    aria-label={`Delete reply: ${reply.text.slice(0, 40)}`}
                    onClick={() => setDeleting({ kind: 'reply', reply })}
                  >
                    <Trash2 aria-hidden="true" /> Delete
                  </Button>
                </div>
              ) : (
                !reply.removed && (
                  <div className="feed-comment__actions">
                    <Button
                      variant="ghost"
                      size="sm"
                      aria-haspopup="dialog"
                      aria-label={`Report reply: ${reply.text.slice(0, 40)}`}
                      onClick={() => setReporting({ kind: 'reply', id: reply._id, authorName: reply.author.firstName })}
                    >
                      <Flag aria-hidden="true" /> Report
                    </Button>
                    {canRemove && (
                      <Button
                        variant="ghost"
                        size="sm"
                        aria-haspopup="dialog"
                        aria-label={`Remove reply: ${reply.text.slice(0, 40)}`}
                        onClick={() =>
                          setRemoving({ kind: 'reply', id: reply._id, authorName: reply.author.firstName })
                        }
                      >
                        <ShieldX aria-hidden="true" /> Remove
                      </Button>
                    )}
                  </div>
                )
              )}
            </li>
          ))}
        </ul>
      )}
      {replying && (
        <div className="feed-replies__compose">
          <Composer
            label={`${FEED_TEXTS.replyLabel} to ${comment.author.firstName}`}
            placeholder={FEED_TEXTS.replyLabel}
            limit={FEED_LIMITS.reply}
            submitLabel="Send reply"
            rows={2}
            autoFocus
            onCancel={() => setReplying(false)}
            onSubmit={async (text) => {
              const taken = await onReply(comment._id, text);
              if (taken) setReplying(false);
              return taken;
            }}
          />
        </div>
      )}
      {appealing && onAppeal && (
        <AppealRemovalDialog
          kind={appealing.kind}
          onAppeal={(explanation) => onAppeal(appealing, explanation)}
          onClose={() => setAppealing(null)}
        />
      )}
      {reporting && <ReportContentDialog content={reporting} onClose={() => setReporting(null)} />}
      {removing && (
        <RemoveContentDialog
          content={removing}
          onClose={() => setRemoving(null)}
          onRemoved={() => onRemoved?.({ ...removing, commentId: comment._id })}
        />
      )}
      {deleting?.kind === 'comment' && (
        <ConfirmDelete
          title={FEED_TEXTS.confirmDeleteComment}
          text={FEED_TEXTS.confirmDeleteCommentText}
          onCancel={() => setDeleting(null)}
          onConfirm={() => {
            setDeleting(null);
            void onDeleteComment(comment);
          }}
        />
      )}
      {deleting?.kind === 'reply' && (
        <ConfirmDelete
          title={FEED_TEXTS.confirmDeleteReply}
          text={FEED_TEXTS.confirmDeleteReplyText}
          onCancel={() => setDeleting(null)}
          onConfirm={() => {
            setDeleting(null);
            void onDeleteReply(deleting.reply);
          }}
        />
      )}
    </article>
  );
}

/**
 * 'Removed: Profanity' (by the filter or staff: the author sees why, staff see what others do not); just 'Removed'
 * when why is not known here (taken down live). Its author may appeal once (spec 5), then sees how it stands.
 */
function RemovedNote({ removal, onAppeal }: { removal: Removal; onAppeal?: () => void }) {
  const why = removal.categories.join(', ');
  return (
    <div className="feed-comment__removed">
      <p>{why ? `Removed: ${why}` : 'Removed'}</p>
      {onAppeal && removal.appeal === 'none' && (
        <Button variant="quiet" size="sm" aria-haspopup="dialog" onClick={onAppeal}>
          <Scale aria-hidden="true" /> Appeal
        </Button>
      )}
      {onAppeal && removal.appeal === 'pending' && <p className="feed-comment__appeal">Appeal sent</p>}
      {onAppeal && removal.appeal === 'rejected' && <p className="feed-comment__appeal">Appeal rejected</p>}
    </div>
  );
}
