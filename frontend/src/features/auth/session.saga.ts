import type { UserInfo } from '@serendip/proto';
import { call, delay, put, race, select, take, takeEvery, takeLatest, takeLeading } from 'redux-saga/effects';
import type { AppServices } from '../../app/services';
import { isHttpError } from '../../shared/http/http-error';
import { logError } from '../../shared/log';
import { pushReceived } from '../system/system.slice';
import { AUTH_ROUTES } from './auth-routes';
import { loginPathAfterEnd, safeRedirectTarget } from './safe-redirect';
import {
  logoutRequested,
  navigatedInApp,
  sessionEnded,
  sessionEndedElsewhere,
  sessionExpired,
  sessionRefreshing,
  type SessionState,
  sessionStarted,
  signedIn,
  signedOut,
  userUpdated,
} from './session.slice';

type SessionServices = Pick<AppServices, 'auth' | 'sessionHint' | 'loadPage' | 'currentPath'>;

/**
 * The spec sets no timeout on calls, but a logout that never answers must not keep the user signed in here: the
 * result is ignored anyway (spec 4), so after this long the page goes to login regardless.
 */
export const LOGOUT_WAIT_MS = 5_000;

/** Runs once boot is over: start the session (spec 4), then keep the hint and logout in step with it. */
export function* sessionSaga(services: SessionServices) {
  yield takeEvery([sessionStarted, signedIn, userUpdated], rememberSession, services);
  yield takeLeading(logoutRequested, logOut, services);
  yield takeLatest(navigatedInApp, checkSessionOnNavigation, services);
  yield takeEvery(pushReceived, endSessionWhenTold, services);
  yield takeLatest(isAccountUpdate, readUserAgain, services);
  // A visitor who signs in while the start-up check is still out wins: a late "no session" must not sign them out.
  yield race({ checked: call(startSession, services), signedIn: take(signedIn) });
}

/**
 * spec 4 "Session start": user info once; on failure, a refresh if there may still be a session, and on 200 user
 * info again. Loading ends either way.
 */
export function* startSession({ auth, sessionHint }: SessionServices) {
  if (!sessionHint.mayHaveSession()) {
    yield put(sessionEnded());
    return;
  }
  const first: Attempt = yield call(attempt, auth.fetchUserInfo);
  if (first.user) {
    yield put(sessionStarted(first.user));
    return;
  }
  // The HTTP module answers a 401 with its one refresh and replay (http-client.ts), so a 401 here means that refresh
  // already failed or did not help: refreshing again would rotate the refresh token twice for one start.
  if (isUnauthorized(first.error)) {
    sessionHint.forget();
    yield put(sessionEnded());
    return;
  }
  // Anything else (no answer, a 5xx, a broken answer) says nothing about the session: try the refresh (R-TOKENS).
  yield put(sessionRefreshing());
  try {
    yield call(auth.refreshSession);
    const user: UserInfo = yield call(auth.fetchUserInfo);
    yield put(sessionStarted(user));
  } catch (error) {
    if (isUnauthorized(error)) sessionHint.forget();
    yield put(sessionEnded());
  }
}

/**
 * spec 4 "In-app navigation": with a session stored, go on; otherwise ask the server for a refresh, and go on only
 * on 200. The hint stands in for the HttpOnly refresh token: it goes when this browser logs out in another tab or the
 * server ends the session, and then this tab must not keep showing signed-in pages.
 */
export function* checkSessionOnNavigation({ auth, sessionHint }: SessionServices) {
  if (sessionHint.mayHaveSession()) return;
  try {
    yield call(auth.refreshSession);
    sessionHint.remember();
  } catch {
    yield put(sessionExpired());
  }
}

/**
 * The server ended the session this page's socket was opened with (a logout in another tab, "end this session" from
 * another device, a password reset). The browser may hold a newer one by now (another tab signed in again), so ask:
 * if the cookies still sign in, go on with that session (the socket reconnects under it). Otherwise, as after a
 * logout, a full page load of /auth/login drops everything the signed-in page held (its camera and microphone, a
 * search in progress), and the login page says why (spec 8 'Session Expired, Please Log In.').
 */
function* endSessionWhenTold(services: SessionServices, action: ReturnType<typeof pushReceived>) {
  const push = action.payload;
  if (push.event !== 'sessionEnded') return;
  // Read directly: the selectors module reaches the store, which runs this saga.
  const { signingOut }: SessionState = yield select((state: { session: SessionState }) => state.session);
  if (signingOut) return; // this tab logged out itself, and is already on its way to the login page
  const { auth, sessionHint, loadPage, currentPath } = services;
  const still: Attempt = yield call(attempt, auth.fetchUserInfo);
  if (still.user) {
    yield put(sessionStarted(still.user));
    return;
  }
  sessionHint.forget();
  yield put(sessionEndedElsewhere());
  yield call(loadPage, loginPathAfterEnd(currentPath(), push.payload.code));
}

const isAccountUpdate = (action: unknown): action is ReturnType<typeof pushReceived> =>
  pushReceived.match(action) && action.payload.event === 'accountUpdated';

/**
 * The server says this user's account changed (a staff role given or taken, two-factor login turned on or off, spec 6
 * Admin): read user info again, so the Dashboard link and the dashboard's guard follow at once (a moderator whose role
 * was taken is sent from the dashboard to / with 'Unauthorized, 404'). Only the newest of several counts.
 */
function* readUserAgain({ auth }: SessionServices, action: ReturnType<typeof pushReceived>) {
  const push = action.payload;
  if (push.event !== 'accountUpdated') return;
  const { user, signingOut }: SessionState = yield select((state: { session: SessionState }) => state.session);
  if (!user || signingOut || user._id !== push.payload.userId) return;
  try {
    const fresh: UserInfo = yield call(auth.fetchUserInfo);
    yield put(userUpdated(fresh));
  } catch (error) {
    logError('User info after an account change failed', error);
  }
}

type Attempt = { user: UserInfo; error?: undefined } | { user?: undefined; error: unknown };

async function attempt(fetchUser: () => Promise<UserInfo>): Promise<Attempt> {
  try {
    return { user: await fetchUser() };
  } catch (error) {
    return { error };
  }
}

function isUnauthorized(error: unknown): boolean {
  return isHttpError(error) && error.status === 401;
}

function rememberSession({ sessionHint }: SessionServices) {
  sessionHint.remember();
}

/**
 * spec 4 "Logout": call the endpoint; whatever it answers, forget the user and load /auth/login as a
 * full page, so no state of the signed-in user survives in memory. The HttpOnly cookies are cleared by the server.
 * With `returnTo`, login comes back there (the dashboard asking staff to sign in again with the code).
 */
function* logOut({ auth, sessionHint, loadPage }: SessionServices, action: ReturnType<typeof logoutRequested>) {
  try {
    yield race({ answered: call(auth.logout), gaveUp: delay(LOGOUT_WAIT_MS) });
  } catch {
    // spec 8: a failed logout is not the user's problem; they are signed out here all the same.
  }
  sessionHint.forget();
  yield put(signedOut());
  const returnTo = action.payload?.returnTo;
  const back = returnTo ? safeRedirectTarget(returnTo, '') : '';
  yield call(loadPage, back ? `${AUTH_ROUTES.login}?redirect=${encodeURIComponent(back)}` : AUTH_ROUTES.login);
}
