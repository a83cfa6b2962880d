import type { LogEntry, LogLevel, LogLevelFilter } from '@serendip/proto';
import { RefreshCw } from 'lucide-react';
import { useCallback, useEffect, useRef, useState } from 'react';
import { useAppDispatch, useAppSelector } from '../../../app/hooks';
import { selectCurrentUser } from '../../../features/auth/session.selectors';
import { checkHealth, HEALTH_DETAILS } from '../../../features/system/health-client';
import { SERVER_STATUS_TEXT } from '../../../features/system/ServerStatusPill';
import { healthChecked, type HealthStatus } from '../../../features/system/system.slice';
import { logError } from '../../../shared/log';
import { notify } from '../../../shared/toasts/notify';
import { useDocumentTitle } from '../../../shared/use-document-title';
import { Badge, type BadgeTone } from '../../../ui/Badge';
import { Button } from '../../../ui/Button';
import { Spinner } from '../../../ui/Spinner';
import { LogsNotFetched, systemLogApi } from './system-log-api';
import './system-log.css';

export const SYSTEM_LOG_TEXTS = {
  title: 'System Log',
  refresh: 'Refresh Server Status',
  loadMore: 'Load More',
  empty: 'No logs available.',
  // spec 8: success false, and a request that failed.
  notFetched: 'Failed to fetch logs.',
  fetchError: 'Error fetching logs. Please try again later.',
  retry: 'Try again',
  adminsOnly: 'The System Log is for admins.',
  adminsOnlyWhy: "It shows the server's own log lines; an admin can look into a problem you see.",
} as const;

const FILTERS: { label: string; level: LogLevelFilter | null }[] = [
  { label: 'All', level: null },
  { label: 'Info', level: 'info' },
  { label: 'Warn', level: 'warn' },
  { label: 'Error', level: 'error' },
];

const LEVEL_TONE: Record<LogLevel, BadgeTone> = { info: 'accent', warn: 'pending', error: 'danger', fatal: 'danger' };

type LogList =
  | { state: 'loading' }
  | { state: 'failed' }
  | { state: 'loaded'; logs: LogEntry[]; page: number; totalPages: number; loadingMore: boolean };

type ListUpdate = (current: LogList) => LogList;
const unchanged: ListUpdate = (current) => current;

const timeFormat = new Intl.DateTimeFormat(undefined, {
  year: 'numeric',
  month: 'short',
  day: '2-digit',
  hour: '2-digit',
  minute: '2-digit',
  second: '2-digit',
});

/**
 * `/dashboard/server-logs` (spec 2 "System Log page"): the server's status from GET /api/health with a button to ask
 * again, and the application's own log lines, newest first, a page more at each Load More until the page number reaches
 * totalPages (spec 4 "Log paging"), filtered by level.
 */
export function SystemLogPage() {
  useDocumentTitle(SYSTEM_LOG_TEXTS.title);
  // GET /api/dash/logs is an admin's (spec 6): a moderator who comes by a link is told so, nothing is asked.
  const isAdmin = useAppSelector(selectCurrentUser)?.role === 'admin';
  return isAdmin ? <SystemLog /> : <AdminsOnly />;
}

function AdminsOnly() {
  return (
    <section className="dash-page system-log">
      <div className="dash-page__head">
        <h1>{SYSTEM_LOG_TEXTS.title}</h1>
      </div>
      <div className="dash-card system-log__state">
        <p>
          <strong className="system-log__admins-only">{SYSTEM_LOG_TEXTS.adminsOnly}</strong>
        </p>
        <p>{SYSTEM_LOG_TEXTS.adminsOnlyWhy}</p>
      </div>
    </section>
  );
}

function SystemLog() {
  const dispatch = useAppDispatch();
  const [health, setHealth] = useState<HealthStatus>('checking');
  const [level, setLevel] = useState<LogLevelFilter | null>(null);
  const [list, setList] = useState<LogList>({ state: 'loading' });
  // Only the newest check and the newest page request may change the page: a slower, older answer is dropped.
  const healthRun = useRef(0);
  const logsRun = useRef(0);

  const checkServer = useCallback(async () => {
    const run = ++healthRun.current;
    const result = await checkHealth();
    if (run !== healthRun.current) return;
    setHealth(result.status);
    // The app's own status indicator learns it too.
    dispatch(healthChecked({ ...result, checkedAt: Date.now() }));
    if (result.status === 'down') {
      // spec 8: a failed request, or any answer but a healthy 200.
      notify.error(
        result.detail === HEALTH_DETAILS.unreachable ? HEALTH_DETAILS.unreachable : HEALTH_DETAILS.unexpected,
      );
    }
  }, [dispatch]);

  /** Asks for a page; answers how the list changes (nothing, for an answer a newer request made stale). */
  const fetchPage = useCallback(async (page: number, filter: LogLevelFilter | null): Promise<ListUpdate> => {
    const run = ++logsRun.current;
    try {
      const answer = await systemLogApi.page(page, filter);
      if (run !== logsRun.current) return unchanged;
      return (current) => {
        const earlier = page > 1 && current.state === 'loaded' ? current.logs : [];
        // Lines logged since the last page push older ones down: a line already shown is not shown twice.
        const shown = new Set(earlier.map((entry) => entry.id));
        const logs = [...earlier, ...answer.logs.filter((entry) => !shown.has(entry.id))];
        return { state: 'loaded', logs, page, totalPages: answer.totalPages, loadingMore: false };
      };
    } catch (error) {
      if (run !== logsRun.current) return unchanged;
      logError('The system log could not be loaded', error);
      notify.error(error instanceof LogsNotFetched ? SYSTEM_LOG_TEXTS.notFetched : SYSTEM_LOG_TEXTS.fetchError);
      return (current) =>
        page > 1 && current.state === 'loaded' ? { ...current, loadingMore: false } : { state: 'failed' };
    }
  }, []);

  useEffect(() => {
    void checkServer();
    void fetchPage(1, null).then(setList);
    return () => {
      healthRun.current += 1;
      logsRun.current += 1;
    };
  }, [checkServer, fetchPage]);

  const refreshStatus = () => {
    setHealth('checking');
    void checkServer();
  };
  const pickLevel = (next: LogLevelFilter | null) => {
    if (next === level) return;
    setLevel(next);
    setList({ state: 'loading' });
    void fetchPage(1, next).then(setList);
  };
  const reload = () => {
    setList({ state: 'loading' });
    void fetchPage(1, level).then(setList);
  };
  const loadMore = () => {
    if (list.state !== 'loaded' || list.loadingMore || list.page >= list.totalPages) return;
    setList({ ...list, loadingMore: true });
    void fetchPage(list.page + 1, level).then(setList);
  };

  return (
    <section className="dash-page system-log">
      <div className="dash-page__head">
        <h1>{SYSTEM_LOG_TEXTS.title}</h1>
        <div className="system-log__status">
          <p className={`system-log__badge system-log__badge--${health}`} role="status" aria-live="polite">
            <span className="system-log__dot" aria-hidden="true" />
            {SERVER_STATUS_TEXT[health]}
          </p>
          <Button variant="quiet" size="sm" onClick={refreshStatus} busy={health === 'checking'}>
            {health !== 'checking' && <RefreshCw size={16} aria-hidden="true" />}
            {SYSTEM_LOG_TEXTS.refresh}
          </Button>
        </div>
      </div>

      <div className="dash-card system-log__card">
        <div className="system-log__filters" role="group" aria-label="Level">
          {FILTERS.map((filter) => (
            <button
              key={filter.label}
              type="button"
              className="system-log__filter"
              aria-pressed={filter.level === level}
              onClick={() => pickLevel(filter.level)}
            >
              {filter.label}
            </button>
          ))}
        </div>

        {list.state === 'loading' && (
          <div className="system-log__state">
            <Spinner label="Loading logs" />
          </div>
        )}
        {list.state === 'failed' && (
          <div className="system-log__state">
            <p>{SYSTEM_LOG_TEXTS.fetchError}</p>
            <Button variant="quiet" size="sm" onClick={reload}>
              {SYSTEM_LOG_TEXTS.retry}
            </Button>
          </div>
        )}
        {list.state === 'loaded' && list.logs.length === 0 && (
          <p className="system-log__state">{SYSTEM_LOG_TEXTS.empty}</p>
        )}
        {list.state === 'loaded' && list.logs.length > 0 && (
          <>
            <ol className="system-log__list" aria-label="Log entries">
              {list.logs.map((entry) => (
                <li key={entry.id} className="system-log__entry">
                  <time className="system-log__time" dateTime={entry.timestamp}>
                    {timeFormat.format(new Date(entry.timestamp))}
                  </time>
                  <Badge tone={LEVEL_TONE[entry.level]} className="system-log__level">
                    {entry.level}
                  </Badge>
                  <code className="system-log__message">{entry.message}</code>
                </li>
              ))}
            </ol>
            {list.page < list.totalPages && (
              <div className="system-log__more">
                <Button variant="quiet" onClick={loadMore} busy={list.loadingMore}>
                  {SYSTEM_LOG_TEXTS.loadMore}
                </Button>
              </div>
            )}
          </>
        )}
      </div>
    </section>
  );
}
