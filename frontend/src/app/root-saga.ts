import { call, fork } from 'redux-saga/effects';
import { bootSaga } from '../features/boot/boot.saga';
import { systemSaga } from '../features/system/system.saga';
import type { AppServices } from './services';

export function* rootSaga(services: AppServices) {
  yield call(bootSaga, services);
  // The socket opens after boot so the first paint never waits on it.
  yield fork(systemSaga, services);
}
