import { FEEDBACK_RATINGS, FEEDBACK_TEXT_MAX_LENGTH } from '@serendip/proto';
import { Flag as ReportIcon, Star, X } from 'lucide-react';
import { useState } from 'react';
import { Link } from 'react-router';
import { useAppDispatch, useAppSelector } from '../../app/hooks';
import { Button } from '../../ui/Button';
import { Card } from '../../ui/Card';
import { Spinner } from '../../ui/Spinner';
import { reportCallPath } from '../reports/report-paths';
import { MATCHING_TEXTS } from './matching-messages';
import { selectMatching } from './matching.selectors';
import { matchingActions as a, type MatchingState } from './matching.slice';

const RATINGS = Object.entries(FEEDBACK_RATINGS).map(([value, label]) => ({ value: Number(value), label }));

/** spec 2 "Post-call feedback card": a rating and more words, then the thanks card for 1.5 s. Never blocks matching. */
export function FeedbackCard() {
  const { feedback } = useAppSelector(selectMatching);
  // Keyed by the call: a rating half-given about one partner never carries over to the next.
  return feedback ? <FeedbackForm key={feedback.matchId} feedback={feedback} /> : null;
}

function FeedbackForm({ feedback }: { feedback: NonNullable<MatchingState['feedback']> }) {
  const dispatch = useAppDispatch();
  // In another call by now: leaving for Recent calls would end that one. Its Report button is on screen instead.
  const { status } = useAppSelector(selectMatching);
  const inAnotherCall = status === 'connecting' || status === 'connected';
  const [rating, setRating] = useState<number | null>(null);
  const [text, setText] = useState('');

  if (feedback.phase === 'thanks') {
    return (
      <Card className="match-feedback" role="status">
        <h2 className="match-feedback__title">{MATCHING_TEXTS.thanksTitle}</h2>
        <p>{MATCHING_TEXTS.thanksText}</p>
        <p className="match-feedback__next">
          <Spinner /> {MATCHING_TEXTS.preparingNext}
        </p>
      </Card>
    );
  }
  return (
    <Card className="match-feedback">
      <form
        onSubmit={(e) => {
          e.preventDefault();
          if (rating) dispatch(a.feedbackSubmitted({ rating, additionalInformation: text.trim() }));
        }}
      >
        <div className="match-feedback__head">
          <h2 className="match-feedback__title">How was your call with {feedback.partnerName}?</h2>
          <Button
            variant="ghost"
            size="sm"
            iconOnly
            aria-label="Skip feedback"
            onClick={() => dispatch(a.feedbackClosed(feedback.matchId))}
          >
            <X aria-hidden="true" />
          </Button>
        </div>
        <div className="match-feedback__stars" role="radiogroup" aria-label="Rating">
          {RATINGS.map(({ value, label }) => (
            <button
              key={value}
              type="button"
              role="radio"
              aria-checked={rating === value}
              aria-label={`${value} ${label}`}
              className={rating !== null && value <= rating ? 'is-on' : undefined}
              onClick={() => setRating(value)}
            >
              <Star aria-hidden="true" />
            </button>
          ))}
        </div>
        <p className="match-feedback__label" aria-hidden="true">
          {rating ? FEEDBACK_RATINGS[rating as keyof typeof FEEDBACK_RATINGS] : 'Tap a star'}
        </p>
        <textarea
          className="match-feedback__text"
          aria-label="Additional information"
          placeholder="Anything else? (optional)"
          maxLength={FEEDBACK_TEXT_MAX_LENGTH}
          value={text}
          onChange={(e) => setText(e.target.value)}
        />
        <Button type="submit" block disabled={!rating}>
          Send feedback
        </Button>
        {/* Reporting happens on Recent calls; matching stops first, so nobody is paired with an empty screen. */}
        {!inAnotherCall && (
          <Link
            className="match-feedback__report"
            to={reportCallPath(feedback.matchId)}
            onClick={() => dispatch(a.leaveRequested())}
          >
            <ReportIcon aria-hidden="true" size={16} /> Report this call
          </Link>
        )}
      </form>
    </Card>
  );
}
