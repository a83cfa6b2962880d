import { AlertDialog } from 'radix-ui';
import { ForcedNotice } from './ForcedNotice';

export interface RemovedComment {
  text: string;
  /** ISO date-time of the comment. */
  postedAt: string;
}

const formatDate = (iso: string) =>
  new Intl.DateTimeFormat('en-US', { dateStyle: 'long', timeStyle: 'short' }).format(new Date(iso));

/**
 * spec 2 "Comment Removed": a forced-open notice that one of the user's comments was taken down. OK marks it read
 * and closes it. Appeal calls `onAppeal`; comment appeals are not built yet (spec 2: its action is not shown).
 */
export function CommentRemovedModal({
  comment,
  onOk,
  onAppeal,
}: {
  comment: RemovedComment;
  onOk: () => void;
  onAppeal: () => void;
}) {
  return (
    <ForcedNotice
      title="Comment Removed"
      actions={
        <>
          <AlertDialog.Cancel className="button button--quiet" onClick={onAppeal}>
            Appeal
          </AlertDialog.Cancel>
          <AlertDialog.Action className="button button--primary" onClick={onOk}>
            OK
          </AlertDialog.Action>
        </>
      }
    >
      <AlertDialog.Description className="forced-notice__text">
        Your comment was removed because it violates our policy and community guidelines. If you believe this was a
        mistake, you can appeal.
      </AlertDialog.Description>
      <section className="forced-notice__block" aria-labelledby="removed-comment-details">
        <h3 id="removed-comment-details" className="forced-notice__block-title">
          Comment Details
        </h3>
        <blockquote className="forced-notice__quote">{comment.text}</blockquote>
        <time dateTime={comment.postedAt}>{formatDate(comment.postedAt)}</time>
      </section>
      <section
        className="forced-notice__block forced-notice__block--danger"
        aria-labelledby="removed-comment-violations"
      >
        <h3 id="removed-comment-violations" className="forced-notice__block-title">
          Violations
        </h3>
        <p>Hate Speech, Profanity and Inappropriate Language.</p>
      </section>
    </ForcedNotice>
  );
}
