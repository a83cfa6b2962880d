import { lazy, Suspense } from 'react';
import { useAppSelector } from '../../app/hooks';
import { selectForcedOnScreen } from './notifications.selectors';

// The dialogs are their own chunk, fetched when a forced-open notification is first waiting.
const ForcedNotificationDialog = lazy(() =>
  import('./ForcedNotificationDialog').then((m) => ({ default: m.ForcedNotificationDialog })),
);

/** spec 2 "Global overlays": the oldest forced-open notification not yet confirmed covers the app, one at a time. */
export function ForcedNotifications() {
  const notification = useAppSelector(selectForcedOnScreen);
  if (!notification) return null;
  return (
    <Suspense fallback={null}>
      {/* Keyed: the next one waiting is a new dialog, not this one with its text swapped. */}
      <ForcedNotificationDialog key={notification._id} notification={notification} />
    </Suspense>
  );
}
