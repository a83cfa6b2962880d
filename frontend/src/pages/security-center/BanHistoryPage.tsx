import type { BanHistoryEntry, WarningEntry } from '@serendip/proto';
import { ShieldCheck } from 'lucide-react';
import { type ReactNode, useCallback, useEffect, useState } from 'react';
import { Link } from 'react-router';
import { useAppSelector } from '../../app/hooks';
import { selectCurrentUser } from '../../features/auth/session.selectors';
import { AppealStatusBadge } from '../../features/moderation/AppealStatusBadge';
import { bannedByName, banOutcome, formatBanDate, LEVEL_LABEL } from '../../features/moderation/ban-display';
import { moderationApi } from '../../features/moderation/moderation-api';
import { SupportEmail } from '../../features/moderation/SupportContact';
import { logError } from '../../shared/log';
import { useDocumentTitle } from '../../shared/use-document-title';
import { Badge } from '../../ui/Badge';
import { Button } from '../../ui/Button';
import { Spinner } from '../../ui/Spinner';
import { STATIC_PAGE_PATHS } from '../legal/static-pages';
import './security-center.css';
import './ban-history.css';

type HistoryLoad =
  { state: 'loading' } | { state: 'failed' } | { state: 'loaded'; bans: BanHistoryEntry[]; warnings: WarningEntry[] };

/**
 * `/security-center/view-ban-history` (spec 2): every ban on the account, newest first, with how it ended and its
 * appeal, and the warnings (violations on the record without a restriction, which count toward the penalty tiers).
 * A banned user reaches it too (the banned screen's View Details): it calls only what the server answers them.
 */
export function BanHistoryPage() {
  useDocumentTitle('Ban History');
  const user = useAppSelector(selectCurrentUser);
  const banned = user?.isBanned ?? false;
  const [load, setLoad] = useState<HistoryLoad>({ state: 'loading' });

  const fetchHistory = useCallback(async (): Promise<HistoryLoad> => {
    try {
      const [bans, warnings] = await Promise.all([moderationApi.banHistory(), moderationApi.warnings()]);
      return {
        state: 'loaded',
        bans: [...bans].sort((a, b) => Date.parse(b.banDate) - Date.parse(a.banDate)),
        warnings: [...warnings].sort((a, b) => Date.parse(b.warnedAt) - Date.parse(a.warnedAt)),
      };
    } catch (error) {
      logError('Ban history failed', error);
      return { state: 'failed' };
    }
  }, []);

  useEffect(() => {
    let live = true;
    void fetchHistory().then((next) => {
      if (live) setLoad(next);
    });
    return () => {
      live = false;
    };
    // Read again when the user changes: a push about a ban (lifted, an appeal decided) gives a new user object.
  }, [fetchHistory, user]);

  async function retry() {
    setLoad({ state: 'loading' });
    setLoad(await fetchHistory());
  }

  return (
    <section
      className="security-subpage ban-history"
      aria-labelledby="ban-history-title"
      aria-busy={load.state === 'loading'}
    >
      {/* A banned user's other pages are the banned screen: back there, not to a Security Center they cannot use. */}
      <Link className="security-subpage__back" to={banned ? '/' : '/security-center'}>
        ← {banned ? 'Account Restricted' : 'Security Center'}
      </Link>
      <h1 id="ban-history-title" className="security-center__title">
        Ban History
      </h1>
      {load.state === 'loading' && (
        <div className="ban-history__loading">
          <Spinner size="lg" label="Loading your ban history" />
        </div>
      )}
      {load.state === 'failed' && (
        <div className="ban-history__failed" role="alert">
          <p>
            Your ban history could not be loaded. Try again, or contact us at <SupportEmail />.
          </p>
          <Button variant="quiet" size="sm" onClick={() => void retry()}>
            Try again
          </Button>
        </div>
      )}
      {load.state === 'loaded' &&
        (load.bans.length === 0 && load.warnings.length === 0 ? (
          <div className="ban-history__empty">
            <ShieldCheck aria-hidden="true" size={40} />
            <p className="ban-history__empty-title">Your account has never been restricted.</p>
            <p className="ban-history__empty-text">
              If it ever is, each restriction, its reason and your appeal will be listed here. See how the{' '}
              <Link to={STATIC_PAGE_PATHS.penaltySystem}>penalty system</Link> works.
            </p>
          </div>
        ) : (
          <>
            {load.bans.length > 0 && (
              <ol className="ban-history__list" aria-label="Bans, newest first">
                {load.bans.map((ban) => (
                  <li key={ban.caseId}>
                    <BanHistoryCard ban={ban} />
                  </li>
                ))}
              </ol>
            )}
            {load.warnings.length > 0 && <Warnings warnings={load.warnings} />}
          </>
        ))}
    </section>
  );
}

function BanHistoryCard({ ban }: { ban: BanHistoryEntry }) {
  const outcome = banOutcome(ban.ended);
  return (
    <article className="ban-entry" aria-labelledby={`case-${ban.caseId}`}>
      <header className="ban-entry__header">
        <h2 id={`case-${ban.caseId}`} className="ban-entry__case">
          Case <code>{ban.caseId}</code>
        </h2>
        <Badge tone={outcome.tone}>{outcome.label}</Badge>
      </header>
      <p className="ban-entry__reason">{ban.reason}</p>
      <dl className="ban-entry__facts">
        <Fact label="Level">{LEVEL_LABEL[ban.level]}</Fact>
        <Fact label="Banned by">{bannedByName(ban.bannedByWho)}</Fact>
        <Fact label="Ban date">{formatBanDate(ban.banDate)}</Fact>
        <Fact label="Expiry">{ban.expiryDate ? formatBanDate(ban.expiryDate) : 'Permanent'}</Fact>
        {ban.ended && <Fact label="Ended">{formatBanDate(ban.ended.at)}</Fact>}
      </dl>
      <div className="ban-entry__appeal">
        <div className="ban-entry__appeal-head">
          <h3 className="ban-entry__appeal-title">Appeal</h3>
          <AppealStatusBadge status={ban.appealStatus} />
          {ban.appealedAt && <span className="ban-entry__date">{formatBanDate(ban.appealedAt)}</span>}
        </div>
        {ban.appealStatus === 'none' ? (
          <p className="ban-entry__muted">{ban.ended ? 'Not appealed.' : 'Not appealed yet.'}</p>
        ) : (
          ban.appealExplanation && (
            <blockquote className="ban-entry__quote" aria-label="Your appeal">
              {ban.appealExplanation}
            </blockquote>
          )
        )}
        {ban.appealDecision && (
          <div className="ban-entry__decision">
            <h4 className="ban-entry__decision-title">
              Moderator's decision <span className="ban-entry__date">{formatBanDate(ban.appealDecision.at)}</span>
            </h4>
            <p>{ban.appealDecision.note}</p>
          </div>
        )}
        {ban.appealStatus === 'pending' && (
          <p className="ban-entry__muted">A moderator will review your appeal. This page shows the decision.</p>
        )}
      </div>
    </article>
  );
}

/** Warnings restrict nothing, but they are on the record: the next violation is judged with them. */
function Warnings({ warnings }: { warnings: WarningEntry[] }) {
  return (
    <section className="ban-history__warnings" aria-labelledby="ban-history-warnings">
      <h2 id="ban-history-warnings" className="ban-history__warnings-title">
        Warnings
      </h2>
      <p className="ban-entry__muted">
        A warning restricts nothing, but it counts toward the{' '}
        <Link to={STATIC_PAGE_PATHS.penaltySystem}>penalty system</Link>'s next step for six months.
      </p>
      <ol className="ban-history__list" aria-label="Warnings, newest first">
        {warnings.map((warning) => (
          <li key={warning.caseId}>
            <article className="ban-entry" aria-labelledby={`case-${warning.caseId}`}>
              <header className="ban-entry__header">
                <h3 id={`case-${warning.caseId}`} className="ban-entry__case">
                  Case <code>{warning.caseId}</code>
                </h3>
                <Badge tone="pending">Warning</Badge>
              </header>
              <p className="ban-entry__reason">{warning.reason}</p>
              <dl className="ban-entry__facts">
                <Fact label="Level">{LEVEL_LABEL[warning.level]}</Fact>
                <Fact label="Warned by">{bannedByName(warning.warnedByWho)}</Fact>
                <Fact label="Date">{formatBanDate(warning.warnedAt)}</Fact>
              </dl>
            </article>
          </li>
        ))}
      </ol>
    </section>
  );
}

function Fact({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="ban-entry__fact">
      <dt>{label}</dt>
      <dd>{children}</dd>
    </div>
  );
}
