import { call, put } from 'redux-saga/effects';
import type { AppServices } from '../../app/services';
import { runHealthCheck } from '../system/system.saga';
import { bootFinished } from './boot.slice';

/**
 * The first health check, then the app. The overlay goes whatever the answer: a down server is told on the
 * page, not by a loading screen that never ends. Session checks (VALIDATING, R-TOKENS) join here later.
 */
export function* bootSaga(services: Pick<AppServices, 'checkHealth' | 'now'>) {
  try {
    yield call(runHealthCheck, services);
  } finally {
    yield put(bootFinished());
  }
}
