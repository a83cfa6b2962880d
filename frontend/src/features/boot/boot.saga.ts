import { call, put } from 'redux-saga/effects';
import type { AppServices } from '../../app/services';
import { runHealthCheck } from '../system/system.saga';
import { bootFinished } from './boot.slice';

/**
 * The first health check, then the app. The overlay goes whatever the answer: a down server is told on the
 * page, not by a loading screen that never ends. The session check (VALIDATING, R-TOKENS) runs right after boot
 * (features/auth/session.saga.ts) so public pages never wait on it; the guards show its overlay.
 */
export function* bootSaga(services: Pick<AppServices, 'checkHealth' | 'now'>) {
  try {
    yield call(runHealthCheck, services);
  } finally {
    yield put(bootFinished());
  }
}
