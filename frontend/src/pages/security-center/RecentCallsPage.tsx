import type { RecentCall } from '@serendip/proto';
import { Flag as ReportIcon, PhoneOff } from 'lucide-react';
import { useCallback, useEffect, useMemo, useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { useAppSelector } from '../../app/hooks';
import { selectCurrentUser } from '../../features/auth/session.selectors';
import { Flag } from '../../features/matching/Flag';
import { callDuration, callStartedAgo, callStartedAt } from '../../features/reports/call-time';
import { pendingDraftCall, type ReportTarget } from '../../features/reports/report-draft';
import { ReportDialog } from '../../features/reports/ReportDialog';
import { reportsApi } from '../../features/reports/reports-api';
import { countryNameOf } from '../../shared/country-names';
import { logError } from '../../shared/log';
import { useDocumentTitle } from '../../shared/use-document-title';
import { Avatar } from '../../ui/Avatar';
import { Badge } from '../../ui/Badge';
import { Button } from '../../ui/Button';
import { Spinner } from '../../ui/Spinner';
import { VisuallyHidden } from '../../ui/VisuallyHidden';
import './security-center.css';
import './recent-calls.css';

/** `at`: when the list came, the moment 'how long ago' counts from. */
type CallList = { state: 'loading' } | { state: 'failed' } | { state: 'loaded'; calls: RecentCall[]; at: number };

export const RECENT_CALLS_TEXTS = {
  title: 'Recent calls',
  intro: 'Your calls from the last 24 hours. Report someone here if you could not during the call.',
  empty: 'No calls in the last 24 hours.',
  failed: 'Your recent calls could not be loaded.',
} as const;

/**
 * `/security-center/recent-calls`: the calls a user can still report (proto RecentCall, REPORT_WINDOW_HOURS), each
 * with a Report button opening the Report User dialog for that call. `?report=<matchId>` opens that call's dialog at
 * once (the feedback card's 'Report this call').
 */
export function RecentCallsPage() {
  useDocumentTitle(RECENT_CALLS_TEXTS.title);
  const reporterId = useAppSelector(selectCurrentUser)?._id ?? null;
  const [list, setList] = useState<CallList>({ state: 'loading' });
  const [reporting, setReporting] = useState<ReportTarget | null>(null);
  const [params, setParams] = useSearchParams();
  const asked = params.get('report');

  const load = useCallback(async (): Promise<CallList> => {
    try {
      const calls = await reportsApi.recentCalls();
      return { state: 'loaded', calls, at: Date.now() };
    } catch (error) {
      logError('Recent calls failed to load', error);
      return { state: 'failed' };
    }
  }, []);

  useEffect(() => {
    let live = true;
    void load().then((next) => live && setList(next));
    return () => {
      live = false;
    };
  }, [load]);

  // The call the link asked for, once it is listed and still open to a report, until that dialog is closed.
  const askedCall =
    asked && list.state === 'loaded' ? list.calls.find((c) => c.matchId === asked && !c.reported) : undefined;
  const askedTarget = useMemo(() => (askedCall ? targetOf(askedCall) : null), [askedCall]);
  const target = reporting ?? askedTarget;
  const closeReport = () => {
    setReporting(null);
    if (asked) setParams({}, { replace: true });
  };

  const pending = reporterId && list.state === 'loaded' ? pendingDraftCall({ reporterId, now: list.at }) : null;
  const markReported = (matchId: string) =>
    setList((current) =>
      current.state === 'loaded'
        ? { ...current, calls: current.calls.map((c) => (c.matchId === matchId ? { ...c, reported: true } : c)) }
        : current,
    );

  return (
    <section className="security-subpage" aria-labelledby="recent-calls-title" aria-busy={list.state === 'loading'}>
      <Link className="security-subpage__back" to="/security-center">
        ← Security Center
      </Link>
      <h1 id="recent-calls-title" className="security-center__title">
        {RECENT_CALLS_TEXTS.title}
      </h1>
      <p className="recent-calls__intro">{RECENT_CALLS_TEXTS.intro}</p>

      {list.state === 'loading' && <Spinner label="Loading recent calls" />}
      {list.state === 'failed' && (
        <div className="recent-calls__notice" role="alert">
          <p>{RECENT_CALLS_TEXTS.failed}</p>
          <Button
            variant="quiet"
            size="sm"
            onClick={() => {
              setList({ state: 'loading' });
              void load().then(setList);
            }}
          >
            Try again
          </Button>
        </div>
      )}
      {list.state === 'loaded' && list.calls.length === 0 && (
        <div className="recent-calls__notice">
          <PhoneOff aria-hidden="true" size={32} />
          <p>{RECENT_CALLS_TEXTS.empty}</p>
        </div>
      )}
      {list.state === 'loaded' && list.calls.length > 0 && (
        <ul className="recent-calls__list">
          {list.calls.map((call) => (
            <RecentCallRow
              key={call.matchId}
              call={call}
              now={list.at}
              unfinished={pending === call.matchId}
              onReport={() => setReporting(targetOf(call))}
            />
          ))}
        </ul>
      )}

      {target && (
        <ReportDialog
          key={target.matchId}
          target={target}
          onClose={closeReport}
          onSubmitted={() => markReported(target.matchId)}
        />
      )}
    </section>
  );
}

function targetOf(call: RecentCall): ReportTarget {
  // The partner's id is not listed: the server finds who was in the call.
  return { matchId: call.matchId, partnerId: null, partnerName: call.partner.firstName };
}

interface RowProps {
  call: RecentCall;
  now: number;
  /** This browser holds an unsent report about it. */
  unfinished: boolean;
  onReport: () => void;
}

function RecentCallRow({ call, now, unfinished, onReport }: RowProps) {
  const { partner } = call;
  const duration = call.endedAt === null ? 'Ongoing' : callDuration(call);
  return (
    <li className="recent-call">
      <Avatar name={partner.firstName} src={partner.avatar} size="md" decorative />
      <div className="recent-call__who">
        <span className="recent-call__name">{partner.firstName}</span>
        {partner.country && (
          <span className="recent-call__country">
            <Flag code={partner.country} decorative /> {countryNameOf(partner.country)}
          </span>
        )}
      </div>
      <div className="recent-call__when">
        <time dateTime={call.startedAt} title={callStartedAt(call.startedAt)}>
          {callStartedAgo(call.startedAt, now)}
        </time>
        {duration && (
          <span className="recent-call__duration">
            <VisuallyHidden>Length: </VisuallyHidden>
            {duration}
          </span>
        )}
      </div>
      <div className="recent-call__action">
        {call.reported ? (
          <Badge tone="neutral">Reported</Badge>
        ) : (
          <Button
            variant="quiet"
            size="sm"
            onClick={onReport}
            aria-haspopup="dialog"
            aria-label={`${unfinished ? 'Continue report' : 'Report'} ${partner.firstName}`}
          >
            <ReportIcon aria-hidden="true" /> {unfinished ? 'Continue report' : 'Report'}
          </Button>
        )}
      </div>
    </li>
  );
}
