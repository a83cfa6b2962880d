import type { LoginSession } from '@serendip/proto';
import { MapPin, Monitor, Smartphone, Tablet } from 'lucide-react';
import { useCallback, useEffect, useId, useState } from 'react';
import { logError } from '../../shared/log';
import { Badge } from '../../ui/Badge';
import { Button } from '../../ui/Button';
import { Spinner } from '../../ui/Spinner';
import { useAccountServices } from './account-services';
import { type DeviceKind, describeSession, formatSessionStart } from './session-device';

type SessionList = { state: 'loading' } | { state: 'failed' } | { state: 'loaded'; sessions: LoginSession[] };

/** What is being ended right now: one session by id, or every other one. */
type Ending = { sessionId: string } | 'others' | null;

const DEVICE_ICONS: Record<DeviceKind, typeof Monitor> = { desktop: Monitor, mobile: Smartphone, tablet: Tablet };
const DEVICE_NAMES: Record<DeviceKind, string> = { desktop: 'Computer', mobile: 'Phone', tablet: 'Tablet' };

/**
 * spec 2 "Active Sessions", titled Devices and Activities (spec 7: GET /sessions, POST /sessions/delete; beyond
 * the spec: POST /sessions/delete-others). spec 8: a failure to list or end sessions is only logged.
 */
export function ActiveSessions() {
  const titleId = useId();
  const { api } = useAccountServices();
  const [list, setList] = useState<SessionList>({ state: 'loading' });
  const [ending, setEnding] = useState<Ending>(null);

  const fetchList = useCallback(async (): Promise<SessionList> => {
    try {
      return { state: 'loaded', sessions: await api.listSessions() };
    } catch (error) {
      logError('Session list failed', error);
      return { state: 'failed' };
    }
  }, [api]);

  useEffect(() => {
    let live = true;
    void fetchList().then((next) => {
      if (live) setList(next);
    });
    return () => {
      live = false;
    };
  }, [fetchList]);

  async function retry() {
    setList({ state: 'loading' });
    setList(await fetchList());
  }

  async function end(which: Exclude<Ending, null>, call: () => Promise<LoginSession[]>) {
    setEnding(which);
    try {
      setList({ state: 'loaded', sessions: await call() });
    } catch (error) {
      logError('Ending a session failed', error);
    } finally {
      setEnding(null);
    }
  }

  const others = list.state === 'loaded' ? list.sessions.filter((session) => !session.isCurrent) : [];
  return (
    <section className="account-sessions" aria-labelledby={titleId} aria-busy={list.state === 'loading'}>
      <div className="account-sessions__header">
        <div>
          <h4 id={titleId} className="account-sessions__title">
            Devices and Activities
          </h4>
          <p className="account-panel__text">Where your account is signed in. End any session you don't recognise.</p>
        </div>
        {others.length > 0 && (
          <Button
            variant="quiet"
            size="sm"
            busy={ending === 'others'}
            disabled={ending !== null}
            onClick={() => void end('others', () => api.endOtherSessions())}
          >
            End all other sessions
          </Button>
        )}
      </div>
      {list.state === 'loading' && <Spinner label="Loading your sessions" />}
      {list.state === 'failed' && (
        <div className="account-sessions__empty">
          <p>We couldn't load your sessions just now.</p>
          <Button variant="quiet" size="sm" onClick={() => void retry()}>
            Try again
          </Button>
        </div>
      )}
      {list.state === 'loaded' && list.sessions.length === 0 && (
        <p className="account-sessions__empty">No active sessions.</p>
      )}
      {list.state === 'loaded' && list.sessions.length > 0 && (
        <ul className="account-sessions__list">
          {list.sessions.map((session) => (
            <SessionItem
              key={session._id}
              session={session}
              busy={typeof ending === 'object' && ending?.sessionId === session._id}
              disabled={ending !== null}
              onEnd={() => void end({ sessionId: session._id }, () => api.endSession({ sessionId: session._id }))}
            />
          ))}
        </ul>
      )}
    </section>
  );
}

interface SessionItemProps {
  session: LoginSession;
  busy: boolean;
  disabled: boolean;
  onEnd: () => void;
}

function SessionItem({ session, busy, disabled, onEnd }: SessionItemProps) {
  const labelId = useId();
  const device = describeSession(session);
  const Icon = DEVICE_ICONS[device.kind];
  return (
    <li className="account-session" aria-labelledby={labelId}>
      <span className="account-session__icon" aria-hidden="true">
        <Icon focusable="false" />
      </span>
      <div className="account-session__body">
        <p className="account-session__name">
          <span id={labelId}>{device.label}</span>
          {session.isCurrent && <Badge tone="accent">This device</Badge>}
        </p>
        <p className="account-session__meta">
          <span>{DEVICE_NAMES[device.kind]}</span>
          <span>
            <MapPin aria-hidden="true" focusable="false" size={14} /> {device.place}
          </span>
          {session.ip && <span>IP {session.ip}</span>}
          <span>
            Signed in <time dateTime={session.createdAt}>{formatSessionStart(session.createdAt)}</time>
          </span>
        </p>
      </div>
      {!session.isCurrent && (
        <Button
          variant="quiet"
          size="sm"
          className="account-session__end"
          busy={busy}
          disabled={disabled}
          aria-describedby={labelId}
          onClick={onEnd}
        >
          End session
        </Button>
      )}
    </li>
  );
}
