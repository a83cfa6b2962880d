import type { NotificationView, UserInfo } from '@serendip/proto';
import type { Channel } from 'redux-saga';
import { all, call, fork, put, select, takeEvery, takeLatest } from 'redux-saga/effects';
import { logError } from '../../shared/log';
import { type SessionState, sessionStarted, signedIn, userUpdated } from '../auth/session.slice';
import { type pushReceived, socketConnected, type SystemState } from '../system/system.slice';
import type { NotificationPage, NotificationsApi } from './notifications-api';
import { isNotificationView, notificationsApi } from './notifications-api';
import { browserNotificationSounds, type NotificationSounds } from './notification-sounds';
import { notificationsActions as actions, type NotificationsState } from './notifications.slice';

export interface NotificationServices {
  api: NotificationsApi;
  sounds: NotificationSounds;
}

export const browserNotificationServices = (): NotificationServices => ({
  api: notificationsApi,
  sounds: browserNotificationSounds,
});

// Read directly: the selectors module reaches the store, which runs this saga.
type State = { session: SessionState; system: SystemState; notifications: NotificationsState };
const currentUser = (state: State) => state.session.user;
const socketUp = (state: State) => state.system.socket.status === 'connected';
const notifications = (state: State) => state.notifications;

/**
 * spec 4 "Notifications", spec 7 newNotification, spec 8: failures of these calls are only logged. `pushes`: the
 * system socket's pushes, kept since before this saga's chunk loaded (notifications.launcher.ts).
 */
export function* notificationsSaga(services: NotificationServices, pushes: Channel<ReturnType<typeof pushReceived>>) {
  // spec 4: fetched on connect (again after a drop: a push sent meanwhile is not replayed), and once the user is known.
  const fetchOn = [socketConnected.type, sessionStarted.type, signedIn.type, actions.latestRequested.type];
  yield takeLatest(fetchOn, fetchLatest, services);
  yield takeLatest(actions.moreRequested, fetchMore, services);
  yield takeEvery(pushes, takeArrival, services);
  yield takeEvery(actions.readRequested, markRead, services);
  yield takeEvery(actions.allReadRequested, markAllRead, services);
  yield takeEvery(actions.forcedConfirmed, confirmForced, services);
  yield takeEvery(userUpdated, fetchWhenFirstKnown);
  // Started after sign-in: a connect that came first is caught up with now.
  yield fork(fetchLatest, services, { type: 'notifications/started' });
}

/** A user who could not be asked before (banned until now) is asked once they can be. */
function* fetchWhenFirstKnown() {
  const state: NotificationsState = yield select(notifications);
  const up: boolean = yield select(socketUp);
  if (state.status === 'idle' && up) yield put(actions.latestRequested());
}

function* fetchLatest({ api }: NotificationServices, action: { type: string }) {
  const user: UserInfo | null = yield select(currentUser);
  if (!user || user.isBanned) return;
  // Asked for by the page (now, or before this chunk loaded): at once. Otherwise with the socket up, so what comes
  // after arrives live.
  const up: boolean = yield select(socketUp);
  const { status }: NotificationsState = yield select(notifications);
  if (!up && !actions.latestRequested.match(action) && status !== 'loading') return;
  yield all([call(fetchPage, api, user._id, 1), call(fetchForced, api, user._id)]);
}

function* fetchPage(api: NotificationsApi, userId: string, page: number) {
  try {
    const answer: NotificationPage = yield call([api, api.list], userId, page);
    yield put(actions.pageLoaded(answer));
  } catch (error) {
    logError('Notifications failed to load', error);
    yield put(actions.pageFailed());
  }
}

function* fetchForced(api: NotificationsApi, userId: string) {
  try {
    const waiting: NotificationView[] = yield call([api, api.forceOpen], userId);
    yield put(actions.forcedLoaded(waiting));
  } catch (error) {
    logError('Forced-open notifications failed to load', error);
  }
}

function* fetchMore({ api }: NotificationServices) {
  const user: UserInfo | null = yield select(currentUser);
  const state: NotificationsState = yield select(notifications);
  if (!user || state.page >= state.totalPages) return;
  yield call(fetchPage, api, user._id, state.page + 1);
}

/** spec 7: newNotification is one object or an array; each new one plays a sound (spec 4), once per push. */
function* takeArrival({ sounds }: NotificationServices, action: ReturnType<typeof pushReceived>) {
  const push = action.payload;
  if (push.event !== 'newNotification') return;
  const payload: unknown = push.payload;
  const received = (Array.isArray(payload) ? payload : [payload]).filter(isNotificationView);
  if (received.length === 0) return;
  const before: NotificationsState = yield select(notifications);
  yield put(actions.arrived(received));
  const after: NotificationsState = yield select(notifications);
  if (after.items === before.items) return; // only repeats
  if (sounds.enabled()) sounds.play();
}

function* markRead({ api }: NotificationServices, action: ReturnType<typeof actions.readRequested>) {
  try {
    yield call([api, api.markRead], action.payload);
  } catch (error) {
    logError('A notification could not be marked read', error);
  }
}

function* markAllRead({ api }: NotificationServices) {
  try {
    yield call([api, api.markAllRead]);
  } catch (error) {
    logError('Notifications could not be marked read', error);
  }
}

function* confirmForced({ api }: NotificationServices, action: ReturnType<typeof actions.forcedConfirmed>) {
  try {
    yield call([api, api.markForceAsRead], action.payload);
  } catch (error) {
    logError('A forced-open notification could not be marked read', error);
  }
}
