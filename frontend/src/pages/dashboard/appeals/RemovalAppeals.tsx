import type { DashRemovalAppeal } from '@serendip/proto';
import { useEffect, useState } from 'react';
import { Link } from 'react-router';
import { feedApi } from '../../../features/feed/feed-api';
import { FEED_ROUTES } from '../../../features/feed/feed-paths';
import { formatBanDate } from '../../../features/moderation/ban-display';
import { isHttpError } from '../../../shared/http/http-error';
import { logError } from '../../../shared/log';
import { notify } from '../../../shared/toasts/notify';
import { Button, Spinner } from '../../../ui';
import { PersonLink } from '../reports/report-bits';
import { DecideAppeal } from './DecideAppeal';

type Loaded = { state: 'loading' } | { state: 'failed' } | { state: 'loaded'; appeals: DashRemovalAppeal[] };

/**
 * 'Comment removals': appeals of comments and replies the profanity filter or staff took down, pending, oldest first
 * (GET FEED_PATHS.removalAppeals). Approving shows the comment again; rejecting keeps it removed.
 */
export function RemovalAppeals() {
  const [loaded, setLoaded] = useState<Loaded>({ state: 'loading' });
  const [attempt, setAttempt] = useState(0);
  const [decided, setDecided] = useState<Set<string>>(() => new Set());

  useEffect(() => {
    const controller = new AbortController();
    feedApi.removalAppeals(controller.signal).then(
      (appeals) => setLoaded({ state: 'loaded', appeals }),
      (error: unknown) => {
        if (controller.signal.aborted) return;
        logError('Removal appeals load failure', error);
        setLoaded({ state: 'failed' });
      },
    );
    return () => controller.abort();
  }, [attempt]);

  const appeals = loaded.state === 'loaded' ? loaded.appeals.filter((a) => !decided.has(a._id)) : [];
  return (
    <section className="dash-removal-appeals" aria-labelledby="removal-appeals-title">
      <div className="dash-page__head">
        <h2 id="removal-appeals-title">Comment removals</h2>
        {loaded.state === 'loaded' ? <span className="dash-muted">{appeals.length} pending, oldest first</span> : null}
      </div>
      {loaded.state === 'loading' ? (
        <div className="dash-card dash-state">
          <Spinner label="Loading comment removal appeals" />
        </div>
      ) : loaded.state === 'failed' ? (
        <div className="dash-card dash-state" role="alert">
          <p>The appeals of comment removals could not be loaded.</p>
          <Button
            variant="quiet"
            onClick={() => {
              setLoaded({ state: 'loading' });
              setAttempt((n) => n + 1);
            }}
          >
            Try again
          </Button>
        </div>
      ) : appeals.length === 0 ? (
        <div className="dash-card dash-state">
          <p>No appeals of comment removals waiting for a decision.</p>
        </div>
      ) : (
        <ul className="dash-appeals" aria-label="Pending appeals of comment removals, oldest first">
          {appeals.map((appeal) => (
            <li key={appeal._id}>
              <RemovalAppealCard appeal={appeal} onDecided={() => setDecided((d) => new Set(d).add(appeal._id))} />
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

function RemovalAppealCard({ appeal, onDecided }: { appeal: DashRemovalAppeal; onDecided: () => void }) {
  const [note, setNote] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [sending, setSending] = useState(false);
  const name = appeal.author.firstName?.trim() || 'Unnamed user';
  const what = appeal.kind === 'comment' ? 'comment' : 'reply';

  async function decide(outcome: 'approved' | 'rejected') {
    setError(null);
    setSending(true);
    try {
      await feedApi.decideRemovalAppeal(appeal._id, { outcome, ...(note.trim() ? { note: note.trim() } : {}) });
      notify.success(
        outcome === 'approved' ? `Appeal approved: ${name}'s ${what} is shown again.` : 'Appeal rejected.',
      );
      onDecided();
    } catch (failure) {
      logError('Removal appeal decision failed', failure);
      setError(
        isHttpError(failure) && failure.status < 500 ? failure.message : 'The decision could not be sent. Try again.',
      );
      setSending(false);
    }
  }

  return (
    <article className="dash-card dash-appeal" aria-label={`Appeal of ${name}'s ${what}`}>
      <h3>
        <PersonLink person={appeal.author} /> <span className="dash-muted">· {what}</span>
      </h3>
      <blockquote>{appeal.text}</blockquote>
      <dl className="dash-facts">
        <div>
          <dt>Written</dt>
          <dd>{formatBanDate(appeal.writtenAt)}</dd>
        </div>
        <div>
          <dt>Removed by</dt>
          <dd>{appeal.removal.by === 'filter' ? 'The profanity filter' : 'Staff'}</dd>
        </div>
        <div>
          <dt>Violations</dt>
          <dd>{appeal.removal.categories.join(', ') || '–'}</dd>
        </div>
        <div>
          <dt>Appealed</dt>
          <dd>{formatBanDate(appeal.appealedAt)}</dd>
        </div>
        <div>
          <dt>Post</dt>
          <dd>
            <Link to={FEED_ROUTES.post(appeal.postId)}>Open the post</Link>
          </dd>
        </div>
      </dl>
      <div>
        <h4 className="dash-muted">The user's explanation</h4>
        <blockquote>{appeal.explanation}</blockquote>
      </div>
      <DecideAppeal
        label="Decision note (optional)"
        hint="The user is told the outcome with it."
        note={note}
        onNote={setNote}
        error={error}
        sending={sending}
        onDecide={(outcome) => void decide(outcome)}
      />
    </article>
  );
}
