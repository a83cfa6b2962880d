import { isSocketError } from '@serendip/proto';
import { type EventChannel, eventChannel, type Task } from 'redux-saga';
import { call, cancel, delay, fork, put, race, select, take, takeLatest } from 'redux-saga/effects';
import type { AppServices } from '../../app/services';
import type { HealthCheckResult } from './health-client';
import { handshakeQuery, type SocketLifecycleEvent, type SystemSocketConnection } from './system-socket';
import { type SessionState, sessionExpired, sessionStarted, signedIn, signedOut } from '../auth/session.slice';
import {
  healthChecked,
  healthCheckRequested,
  pingAnswered,
  pingFailed,
  pushReceived,
  socketConnected,
  socketConnecting,
  socketDisconnected,
} from './system.slice';
import { logError } from '../../shared/log';

export const HEALTH_RECHECK_INTERVAL_MS = 30_000;
export const PING_INTERVAL_MS = 15_000;

type SystemServices = Pick<AppServices, 'checkHealth' | 'openSystemSocket' | 'now'>;

/** One health probe into the store. checkHealth never throws, so boot can always go on after it. */
export function* runHealthCheck(services: Pick<AppServices, 'checkHealth' | 'now'>) {
  const result: HealthCheckResult = yield call(services.checkHealth);
  yield put(healthChecked({ ...result, checkedAt: services.now() }));
}

/** Keeps the server status fresh after boot: on request, on a timer, and when the socket drops or returns. */
export function* systemSaga(services: SystemServices) {
  yield takeLatest(healthCheckRequested, runHealthCheck, services);
  yield fork(recheckHealthPeriodically);
  yield fork(systemSocketSaga, services);
}

function* recheckHealthPeriodically() {
  while (true) {
    yield delay(HEALTH_RECHECK_INTERVAL_MS);
    yield put(healthCheckRequested());
  }
}

function lifecycleChannel(socket: SystemSocketConnection): EventChannel<SocketLifecycleEvent> {
  return eventChannel((emit) => socket.subscribe(emit));
}

// Read directly: the selectors module reaches the store, which runs this saga.
const currentUserId = (state: { session: SessionState }) => state.session.user?._id;

function* systemSocketSaga(services: SystemServices) {
  yield put(socketConnecting());
  let socket: SystemSocketConnection;
  const openedFor: string | undefined = yield select(currentUserId);
  try {
    socket = yield call(services.openSystemSocket, handshakeQuery(openedFor));
  } catch (error) {
    // Its chunk could not be fetched (offline, a deploy replaced it): the page works on without the socket.
    logError('The real-time connection could not be loaded', error);
    return;
  }
  // spec 7: the query names the signed-in user; one who became known while the chunk loaded is named from now on.
  const knownNow: string | undefined = yield select(currentUserId);
  if (knownNow !== openedFor) socket.renew(handshakeQuery(knownNow));
  const lifecycle: EventChannel<SocketLifecycleEvent> = yield call(lifecycleChannel, socket);
  let pinger: Task | null = null;
  let connected = false;
  let everConnected = false;
  try {
    while (true) {
      const {
        event,
        health,
        signIn,
      }: { event?: SocketLifecycleEvent; health?: ReturnType<typeof healthChecked>; signIn?: unknown } = yield race({
        event: take(lifecycle),
        health: take(healthChecked),
        signIn: take([signedIn, sessionStarted, signedOut, sessionExpired]),
      });
      if (signIn) {
        // The server learns who is on the socket at its handshake: a new sign-in (or none) needs a new one.
        const userId: string | undefined = yield select(currentUserId);
        socket.renew(handshakeQuery(userId));
        continue;
      }
      if (health) {
        // Socket.IO gives up after SOCKET_RECONNECTION.reconnectionAttempts; a healthy server deserves a new try.
        if (health.payload.status === 'up' && !connected) socket.reconnect();
        continue;
      }
      if (!event) continue;
      switch (event.type) {
        case 'connected':
          connected = true;
          yield put(socketConnected());
          if (pinger) yield cancel(pinger);
          pinger = yield fork(pingLoop, socket, services.now);
          // Back after a drop: the server may be back too, so don't wait for the timer to say so.
          if (everConnected) yield put(healthCheckRequested());
          everConnected = true;
          break;
        case 'disconnected':
          if (pinger) yield cancel(pinger);
          pinger = null;
          yield put(socketDisconnected());
          // Only a drop says something new about the server; each failed retry would just repeat it.
          if (connected) yield put(healthCheckRequested());
          connected = false;
          break;
        case 'pushed':
          yield put(pushReceived(event.push));
          break;
        default: {
          const unexpected: never = event;
          throw new Error(`unhandled socket event ${JSON.stringify(unexpected)}`);
        }
      }
    }
  } finally {
    lifecycle.close();
    socket.close();
  }
}

function* pingLoop(socket: SystemSocketConnection, now: () => number) {
  while (true) {
    try {
      const answer: Awaited<ReturnType<SystemSocketConnection['ping']>> = yield call([socket, socket.ping], {
        sentAt: now(),
      });
      if (isSocketError(answer)) yield put(pingFailed());
      // The server echoes sentAt, so the round trip needs only our own clock.
      else yield put(pingAnswered({ latencyMs: Math.max(0, Math.round(now() - answer.sentAt)) }));
    } catch {
      yield put(pingFailed()); // no answer within the timeout
    }
    yield delay(PING_INTERVAL_MS);
  }
}
