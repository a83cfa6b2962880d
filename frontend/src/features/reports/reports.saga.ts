import { takeEvery } from 'redux-saga/effects';
import { signedOut } from '../auth/session.slice';
import { forgetDraft } from './report-draft';

/** Signing out forgets an unsent report: it holds a stranger's picture, and the next person on this browser is not its author. */
export function* reportsSaga() {
  yield takeEvery(signedOut, () => forgetDraft());
}
