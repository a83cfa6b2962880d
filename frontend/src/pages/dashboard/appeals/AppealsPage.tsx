import type { DashAppeal, DashAppealsPage } from '@serendip/proto';
import { useEffect, useState } from 'react';
import { useAppSelector } from '../../../app/hooks';
import { selectCurrentUser } from '../../../features/auth/session.selectors';
import { formatBanDate, LEVEL_LABEL } from '../../../features/moderation/ban-display';
import { REASON_LABELS } from '../../../features/reports/report-texts';
import { isHttpError } from '../../../shared/http/http-error';
import { logError } from '../../../shared/log';
import { notify } from '../../../shared/toasts/notify';
import { useDocumentTitle } from '../../../shared/use-document-title';
import { Button, Spinner } from '../../../ui';
import { DecideAppeal } from './DecideAppeal';
import { useDashboardLive } from '../dashboard-live';
import { decideAppeal, fetchAppeals } from '../reports/dash-moderation-api';
import { EvidenceThumbs, Pager, PersonLink, SeverityBadge } from '../reports/report-bits';
import '../reports/reports-page.css';
import { RemovalAppeals } from './RemovalAppeals';

export const APPEAL_TEXTS = {
  /** A moderator's view of an appeal that is an admin's to decide (the server says which: `canDecide`). */
  adminDecides: 'An admin decides this appeal.',
  /** A moderator's view of the appeal of a ban they decided: the review is another's (the server refuses it). */
  ownBan: 'You decided this ban: another staff member decides the appeal.',
} as const;

type Loaded = { key: string; answer: DashAppealsPage } | { key: string; failed: true };

/**
 * The appeals queue (spec 4 "Appeal": one appeal per ban, impartial review): pending appeals of bans still on, oldest
 * first, each with the ban, the user's explanation and the reports the ban acted on. Approving ends the ban,
 * rejecting keeps it; either needs a note saying what the review found. A moderator decides only the appeals the
 * server says they may (short bans of plain users another moderator decided); the others say who decides them. The
 * evidence's pictures load only when a staff member opens them (each look is recorded). The queue loads again when
 * staff hear it changed (appealQueueChanged: an appeal filed or decided elsewhere), keeping the list shown meanwhile.
 */
export function AppealsPage() {
  useDocumentTitle('Appeals');
  const [page, setPage] = useState(1);
  const [attempt, setAttempt] = useState(0);
  const [loaded, setLoaded] = useState<Loaded | null>(null);
  const [decided, setDecided] = useState<Set<string>>(() => new Set());
  const changes = useDashboardLive((live) => live.appealQueueChanges);
  const key = `${page}|${attempt}`;

  useEffect(() => {
    const controller = new AbortController();
    fetchAppeals(page, controller.signal).then(
      (answer) => setLoaded({ key, answer }),
      (error: unknown) => {
        if (controller.signal.aborted) return;
        logError('Appeals load failure', error);
        setLoaded({ key, failed: true });
      },
    );
    return () => controller.abort();
    // `key` names every input of the request; a live change loads the same page again, its answer under the same key.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [key, changes]);

  const current = loaded?.key === key ? loaded : null;
  const answer = current && 'answer' in current ? current.answer : null;
  const appeals = answer?.items.filter((a) => !decided.has(a.caseId)) ?? [];
  // Decided here and still in the answer (one loaded since no longer lists it, nor counts it).
  const pending = answer ? answer.total - (answer.items.length - appeals.length) : 0;
  const viewerId = useAppSelector(selectCurrentUser)?._id;

  return (
    <section className="dash-page">
      <div className="dash-page__head">
        <h1>Appeals</h1>
        {answer ? <span className="dash-muted">{pending} pending, oldest first</span> : null}
      </div>
      {!current ? (
        <div className="dash-card dash-state">
          <Spinner label="Loading appeals" />
        </div>
      ) : !answer ? (
        <div className="dash-card dash-state" role="alert">
          <p>The appeals could not be loaded.</p>
          <Button variant="quiet" onClick={() => setAttempt((n) => n + 1)}>
            Try again
          </Button>
        </div>
      ) : appeals.length === 0 ? (
        <div className="dash-card dash-state">
          <p>No appeals waiting for a decision.</p>
        </div>
      ) : (
        <>
          <ul className="dash-appeals" aria-label="Pending appeals, oldest first">
            {appeals.map((appeal) => (
              <li key={appeal.caseId}>
                <AppealCard
                  appeal={appeal}
                  viewerId={viewerId}
                  onDecided={() => setDecided((d) => new Set(d).add(appeal.caseId))}
                />
              </li>
            ))}
          </ul>
          {answer.totalPages > 1 ? (
            <Pager label="Appeal pages" page={page} totalPages={answer.totalPages} onPage={setPage} />
          ) : null}
        </>
      )}
      <RemovalAppeals />
    </section>
  );
}

function AppealCard({
  appeal,
  viewerId,
  onDecided,
}: {
  appeal: DashAppeal;
  viewerId: string | undefined;
  onDecided: () => void;
}) {
  const [note, setNote] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [sending, setSending] = useState(false);
  const name = appeal.user.erased ? 'Erased account' : appeal.user.firstName || 'Unnamed user';

  async function decide(outcome: 'approved' | 'rejected') {
    setError(null);
    if (!note.trim()) return setError('Write a note saying what the review found.');
    setSending(true);
    try {
      await decideAppeal(appeal.caseId, { outcome, note: note.trim() });
      notify.success(outcome === 'approved' ? `Appeal approved: ${name}'s ban is lifted.` : 'Appeal rejected.');
      onDecided();
    } catch (failure) {
      logError('Appeal decision failed', failure);
      setError(isHttpError(failure) ? failure.message : 'The decision could not be sent. Try again.');
      setSending(false);
    }
  }

  return (
    <article className="dash-card dash-appeal" aria-label={`Appeal of ${name}`}>
      <h2>
        <PersonLink person={appeal.user} /> <span className="dash-muted">· case {appeal.caseId.slice(0, 8)}</span>
      </h2>
      <dl className="dash-facts">
        <div>
          <dt>Reason</dt>
          <dd>{appeal.reason}</dd>
        </div>
        <div>
          <dt>Level</dt>
          <dd>{LEVEL_LABEL[appeal.level] ?? appeal.level}</dd>
        </div>
        <div>
          <dt>Banned</dt>
          <dd>{formatBanDate(appeal.bannedAt)}</dd>
        </div>
        <div>
          <dt>Expires</dt>
          <dd>{appeal.expiresAt ? formatBanDate(appeal.expiresAt) : 'Permanent'}</dd>
        </div>
        <div>
          <dt>Banned by</dt>
          <dd>
            <PersonLink person={appeal.bannedBy} />
          </dd>
        </div>
        <div>
          <dt>Appealed</dt>
          <dd>{formatBanDate(appeal.appealedAt)}</dd>
        </div>
      </dl>
      <div>
        <h3 className="dash-muted">The user's explanation</h3>
        <blockquote>{appeal.appealExplanation}</blockquote>
      </div>
      <div className="dash-appeal__evidence">
        <h3 className="dash-muted">Evidence</h3>
        {appeal.evidence.length === 0 ? (
          <p className="dash-muted">No report: the ban was made without one.</p>
        ) : (
          appeal.evidence.map((report) => (
            <div key={report._id} className="dash-appeal__evidence-item">
              <span>
                Report #{report.number}: {REASON_LABELS[report.reason] ?? report.reason}
              </span>
              <SeverityBadge severity={report.severity} />
              <span className="dash-muted">
                by <PersonLink person={report.reportedByWho} />
              </span>
              <EvidenceThumbs report={report} />
            </div>
          ))
        )}
      </div>
      {appeal.canDecide ? (
        <DecideAppeal
          label="Decision note"
          hint="The user sees it in the ban history."
          note={note}
          onNote={setNote}
          error={error}
          sending={sending}
          onDecide={(outcome) => void decide(outcome)}
        />
      ) : (
        <p className="dash-muted">
          {appeal.bannedBy._id === viewerId ? APPEAL_TEXTS.ownBan : APPEAL_TEXTS.adminDecides}
        </p>
      )}
    </article>
  );
}
