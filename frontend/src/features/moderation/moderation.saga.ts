import type { UserInfo } from '@serendip/proto';
import { call, delay, fork, put, select, take, takeEvery, takeLatest } from 'redux-saga/effects';
import type { AppServices } from '../../app/services';
import { logError } from '../../shared/log';
import { type SessionState, sessionStarted, signedIn, userUpdated } from '../auth/session.slice';
import { matchingActions } from '../matching/matching.slice';
import { pushReceived, socketConnected } from '../system/system.slice';
import { banMayHaveEnded } from './moderation.actions';

type ModerationServices = Pick<AppServices, 'auth'>;

/**
 * After a countdown reaches the expiry, the server's scheduled check ends the ban a little later: ask again after
 * these waits (the first one from the action), and stop asking when the server still says banned after the last.
 */
export const BAN_END_RECHECK_MS = [10_000, 30_000, 60_000] as const;

// Read directly: the selectors module reaches the store, which runs this saga.
const currentUser = (state: { session: SessionState }) => state.session.user;

/** spec 4 "Live ban status", and what a ban does to the rest of the page. */
export function* moderationSaga(services: ModerationServices) {
  yield takeEvery(pushReceived, applyBanStatus, services);
  yield takeLatest(banMayHaveEnded, recheckBanEnd, services);
  yield takeEvery([sessionStarted, signedIn, userUpdated], leaveMatchingWhenBanned);
  yield takeLatest(matchingActions.restrictionNoticed, refreshStanding, services);
  yield fork(recheckStandingOnReconnect, services);
}

/**
 * A push sent while the system socket was down is lost (it is not replayed): after every reconnect, ask user info, so
 * a ban (or its end), or a staff role given or taken (accountUpdated), that happened meanwhile shows.
 */
function* recheckStandingOnReconnect({ auth }: ModerationServices) {
  yield take(socketConnected);
  for (;;) {
    yield take(socketConnected);
    const user: UserInfo | null = yield select(currentUser);
    if (!user) continue;
    try {
      const fresh: UserInfo = yield call(auth.fetchUserInfo);
      const changed =
        fresh.isBanned !== user.isBanned ||
        fresh.role !== user.role ||
        fresh.twoFactorEnabled !== user.twoFactorEnabled;
      if (changed) yield put(userUpdated(fresh));
    } catch (error) {
      logError('User info after the real-time connection came back failed', error);
    }
  }
}

/**
 * The video socket says the account is banned: ask user info at once, so the banned screen shows even if the live
 * push was missed (a connection that dropped at that moment).
 */
function* refreshStanding({ auth }: ModerationServices) {
  const user: UserInfo | null = yield select(currentUser);
  if (!user || user.isBanned) return;
  try {
    const fresh: UserInfo = yield call(auth.fetchUserInfo);
    if (fresh.isBanned) yield put(userUpdated(fresh));
  } catch (error) {
    logError('User info after a refused video socket failed', error);
  }
}

/**
 * banStatusUpdated {userId, isBanned} applies only to the current user (spec 4). A ban shows the banned screen at
 * once; a lifted one is taken as said and user info is asked again, so the rest of the user is current too.
 */
function* applyBanStatus({ auth }: ModerationServices, action: ReturnType<typeof pushReceived>) {
  const push = action.payload;
  if (push.event !== 'banStatusUpdated') return;
  const user: UserInfo | null = yield select(currentUser);
  if (!user || user._id !== push.payload.userId) return;
  // Still banned but something changed (an appeal was decided): a new user object makes the banned screen read its
  // ban again.
  yield put(userUpdated({ ...user, isBanned: push.payload.isBanned }));
  if (push.payload.isBanned) return;
  try {
    const fresh: UserInfo = yield call(auth.fetchUserInfo);
    yield put(userUpdated(fresh));
  } catch (error) {
    logError('User info after a lifted ban failed', error);
  }
}

function* recheckBanEnd({ auth }: ModerationServices, action: ReturnType<typeof banMayHaveEnded>) {
  const waits = [action.payload.delayMs, ...BAN_END_RECHECK_MS];
  for (const wait of waits) {
    yield delay(wait);
    const user: UserInfo | null = yield select(currentUser);
    if (!user?.isBanned) return; // lifted meanwhile (a push), or signed out
    try {
      const fresh: UserInfo = yield call(auth.fetchUserInfo);
      if (!fresh.isBanned) {
        yield put(userUpdated(fresh));
        return;
      }
    } catch (error) {
      logError('User info after a ban expiry failed', error);
    }
  }
}

/**
 * The banned screen replaces the video match page, but the matching session is a saga of its own: leave it, so the
 * camera and microphone go off and the video socket closes (the server has ended the call already).
 */
function* leaveMatchingWhenBanned(action: { payload: UserInfo }) {
  if (action.payload.isBanned) yield put(matchingActions.leaveRequested());
}
