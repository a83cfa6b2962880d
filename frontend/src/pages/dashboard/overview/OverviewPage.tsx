import type { DashboardCounters, DashboardOverview } from '@serendip/proto';
import { RefreshCw } from 'lucide-react';
import { lazy, Suspense, useCallback, useEffect, useRef, useState } from 'react';
import { useAppSelector } from '../../../app/hooks';
import { selectCurrentUser } from '../../../features/auth/session.selectors';
import { useCountersLoaded, useDashboardLive } from '../dashboard-live';
import { OnlineNow } from './OnlineNow';
import { fetchOverview } from './overview-api';
import { logError } from '../../../shared/log';
import { useDocumentTitle } from '../../../shared/use-document-title';
import { Button } from '../../../ui/Button';
import { Spinner } from '../../../ui/Spinner';
import './overview.css';

// The chart library comes in a chunk of its own, after the counters show (a user's first visit never loads it).
const OverviewCharts = lazy(() => import('./OverviewCharts'));

/** The charts follow the live counters, reloaded at most this often (each load reads the stats tables). */
const CHARTS_FOLLOW_MS = 10_000;

const keyOf = (counters: DashboardCounters) => JSON.stringify(counters);

type Loaded = { state: 'loading' } | { state: 'failed' } | { state: 'loaded'; overview: DashboardOverview };

export const OVERVIEW_TEXTS = {
  failed: 'The overview could not be loaded.',
  live: 'Live',
  offline: 'Not live: reconnecting…',
} as const;

const CARDS: { key: keyof DashboardCounters; label: string; tone?: 'accent' | 'danger' | 'pending' }[] = [
  { key: 'onlineNow', label: 'Online now', tone: 'accent' },
  { key: 'searching', label: 'Searching' },
  { key: 'inCalls', label: 'In calls', tone: 'accent' },
  { key: 'relayedCalls', label: 'Relayed calls' },
  { key: 'reportsToday', label: 'Reports today' },
  { key: 'openReports', label: 'Open reports', tone: 'danger' },
  { key: 'openAppeals', label: 'Open appeals', tone: 'pending' },
  { key: 'activeBans', label: 'Active bans' },
];

/**
 * `/dashboard` (spec 2 "Admin dashboard"): live counters (first from GET /api/dash/overview, then as the system socket
 * pushes dashboardCounters to staff), charts of the last 24 hours and 14 days, and the SFU nodes' load.
 */
export function OverviewPage() {
  useDocumentTitle('Overview');
  const countersLoaded = useCountersLoaded();
  const counters = useDashboardLive((live) => live.counters);
  const socketStatus = useAppSelector((state) => state.system.socket.status);
  const isAdmin = useAppSelector(selectCurrentUser)?.role === 'admin';
  const [loaded, setLoaded] = useState<Loaded>({ state: 'loading' });
  // The counters the charts were last loaded with (a push that changes them reloads the charts), and when the last
  // load began.
  const chartsKey = useRef<string | null>(null);
  const lastLoadAt = useRef(0);

  const load = useCallback(async (): Promise<Loaded> => {
    lastLoadAt.current = Date.now();
    try {
      const overview = await fetchOverview();
      chartsKey.current = keyOf(overview.counters);
      countersLoaded(overview.counters, overview.at);
      return { state: 'loaded', overview };
    } catch (error) {
      logError('The dashboard overview failed to load', error);
      return { state: 'failed' };
    }
  }, [countersLoaded]);

  const mounted = useRef(true);
  useEffect(() => {
    mounted.current = true;
    let live = true;
    void load().then((next) => live && setLoaded(next));
    return () => {
      live = false;
      mounted.current = false;
    };
  }, [load]);

  // The charts follow the counters (a report filed shows in "Reports and bans per day" too), at most every 10 s; the
  // reload happens in place, the charts on screen until the new ones come.
  const liveKey = counters ? keyOf(counters) : null;
  const chartsLoaded = loaded.state === 'loaded';
  useEffect(() => {
    if (!chartsLoaded || liveKey === null || liveKey === chartsKey.current) return;
    const timer = setTimeout(
      () => {
        // A load that ended meanwhile may have brought these very counters.
        if (liveKey === chartsKey.current) return;
        void load().then((next) => {
          // A failed reload leaves the charts shown; the next change tries again.
          if (mounted.current && next.state === 'loaded') setLoaded(next);
        });
      },
      Math.max(0, lastLoadAt.current + CHARTS_FOLLOW_MS - Date.now()),
    );
    return () => clearTimeout(timer);
  }, [liveKey, chartsLoaded, load]);

  const refresh = () => {
    setLoaded({ state: 'loading' });
    void load().then(setLoaded);
  };
  const live = socketStatus === 'connected';

  return (
    <section className="dash-page overview">
      <div className="dash-page__head">
        <h1>Overview</h1>
        <div className="overview__head-end">
          <span className={live ? 'overview__live overview__live--on' : 'overview__live'} role="status">
            <span className="overview__live-dot" aria-hidden="true" />
            {live ? OVERVIEW_TEXTS.live : OVERVIEW_TEXTS.offline}
          </span>
          <Button variant="quiet" size="sm" onClick={refresh} disabled={loaded.state === 'loading'}>
            <RefreshCw size={16} aria-hidden="true" />
            Refresh
          </Button>
        </div>
      </div>

      {loaded.state === 'failed' && (
        <div className="dash-card overview__error" role="alert">
          <p>{OVERVIEW_TEXTS.failed}</p>
          <Button size="sm" onClick={refresh}>
            Try again
          </Button>
        </div>
      )}

      {counters ? (
        <ul className="overview__counters" aria-label="Live counters">
          {CARDS.map(({ key, label, tone }) => (
            <li
              key={key}
              className={
                tone ? `dash-card overview__counter overview__counter--${tone}` : 'dash-card overview__counter'
              }
            >
              <span className="overview__counter-label" id={`counter-${key}`}>
                {label}
              </span>
              <span
                className="overview__counter-value"
                aria-labelledby={`counter-${key}`}
                data-testid={`counter-${key}`}
              >
                {/* A server older than this page (a rolling deploy) may not send every counter yet. */}
                {(counters[key] as number | undefined)?.toLocaleString('en') ?? '–'}
              </span>
            </li>
          ))}
        </ul>
      ) : (
        loaded.state === 'loading' && <Spinner label="Loading the overview" />
      )}

      {isAdmin && <OnlineNow />}

      {loaded.state === 'loaded' && (
        <Suspense fallback={<Spinner label="Loading the charts" />}>
          <OverviewCharts overview={loaded.overview} />
        </Suspense>
      )}
    </section>
  );
}
