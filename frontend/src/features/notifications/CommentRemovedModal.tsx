import { AlertDialog } from 'radix-ui';
import { useState } from 'react';
import { Button } from '../../ui/Button';
import { AppealBox, APPEAL_TEXTS, useAppealBox } from '../feed/AppealBox';
import { ForcedNotice } from './ForcedNotice';

export interface RemovedComment {
  text: string;
  /** ISO date-time of the comment. */
  postedAt: string;
  /** What the filter found, e.g. 'Profanity', or the reason staff gave; may be empty. */
  categories: string[];
  /** Who took it down (absent: the filter). */
  removedBy?: 'filter' | 'staff';
}

export const COMMENT_REMOVED_TEXTS = APPEAL_TEXTS;

const formatDate = (iso: string) =>
  new Intl.DateTimeFormat('en-US', { dateStyle: 'long', timeStyle: 'short' }).format(new Date(iso));

/**
 * spec 2 "Comment Removed": a forced-open notice that one of the user's comments was taken down. OK marks it read
 * and closes it. Appeal opens a box for the user's explanation; `onAppeal` sends it and says whether it was taken
 * (then the notice is done, as with OK).
 */
export function CommentRemovedModal({
  comment,
  onOk,
  onAppeal,
}: {
  comment: RemovedComment;
  onOk: () => void;
  onAppeal: (explanation: string) => Promise<boolean>;
}) {
  const [appealing, setAppealing] = useState(false);
  const box = useAppealBox(onAppeal);
  const { sending } = box;
  const found = comment.categories.join(', ');

  return (
    <ForcedNotice
      title="Comment Removed"
      actions={
        appealing ? (
          <>
            <Button variant="quiet" disabled={sending} onClick={() => setAppealing(false)}>
              Cancel
            </Button>
            <Button busy={sending} onClick={() => void box.send()}>
              Submit Appeal
            </Button>
          </>
        ) : (
          <>
            <Button variant="quiet" onClick={() => setAppealing(true)}>
              Appeal
            </Button>
            <AlertDialog.Action className="button button--primary" onClick={onOk}>
              OK
            </AlertDialog.Action>
          </>
        )
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
        {found &&
          (comment.removedBy === 'staff' ? (
            <p className="forced-notice__found">Reason given: {found}</p>
          ) : (
            <p className="forced-notice__found">Found in your comment: {found}</p>
          ))}
      </section>
      {appealing && <AppealBox box={box} />}
    </ForcedNotice>
  );
}
