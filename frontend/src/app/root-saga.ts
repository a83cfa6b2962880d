import { call, fork } from 'redux-saga/effects';
import { sessionSaga } from '../features/auth/session.saga';
import { bootSaga } from '../features/boot/boot.saga';
import { matchingSaga } from '../features/matching/matching.saga';
import { reportsSaga } from '../features/reports/reports.saga';
import { moderationSaga } from '../features/moderation/moderation.saga';
import { notificationsLauncher } from '../features/notifications/notifications.launcher';
import { systemSaga } from '../features/system/system.saga';
import type { AppServices } from './services';

export function* rootSaga(services: AppServices) {
  yield call(bootSaga, services);
  // spec 4: the session starts once the app is up; public pages show at once, guarded ones wait on it.
  yield fork(sessionSaga, services);
  // The socket opens after boot so the first paint never waits on it.
  yield fork(systemSaga, services);
  yield fork(matchingSaga, services.matching);
  yield fork(reportsSaga);
  // spec 4 "Live ban status", and the banned screen's check for the end of a ban.
  yield fork(moderationSaga, services);
  // spec 4 "Notifications": the bell's list, live arrivals with a sound, the forced-open overlay.
  yield fork(notificationsLauncher, services.notifications);
}
