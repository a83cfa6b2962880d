import { buffers, type Channel } from 'redux-saga';
import { actionChannel, call, take } from 'redux-saga/effects';
import { logError } from '../../shared/log';
import { sessionStarted, signedIn, userUpdated } from '../auth/session.slice';
import { pushReceived } from '../system/system.slice';
import type * as notificationsChunk from './notifications.saga';
import type { NotificationServices } from './notifications.saga';

type NotificationsChunk = typeof notificationsChunk;

/**
 * Starts the notifications saga with its calls and sounds, their own chunk, once someone is signed in: a visitor's
 * first visit never downloads them (first-visit size budget). Pushes that come while it loads wait for it.
 */
export function* notificationsLauncher(services: NotificationServices | undefined) {
  const pushes: Channel<ReturnType<typeof pushReceived>> = yield actionChannel(pushReceived, buffers.expanding(20));
  yield take([sessionStarted.type, signedIn.type, userUpdated.type]);
  let chunk: NotificationsChunk;
  try {
    chunk = yield call(() => import('./notifications.saga'));
  } catch (error) {
    // Offline, or a deploy replaced the chunk: the page works on without notifications.
    logError('Notifications could not be loaded', error);
    return;
  }
  yield call(chunk.notificationsSaga, services ?? chunk.browserNotificationServices(), pushes);
}
