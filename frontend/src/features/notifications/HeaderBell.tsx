import { lazy, Suspense } from 'react';
import { useAppSelector } from '../../app/hooks';
import { selectSession } from '../auth/session.selectors';

// Its own chunk, for signed-in users only: a visitor's first page never downloads it (first-visit size budget).
const NotificationBell = lazy(() => import('./NotificationBell').then((m) => ({ default: m.NotificationBell })));

/** The bell in the header, on a phone too (spec 2: the header keeps it; the phone's menu lists notifications). */
export function HeaderBell() {
  const { user, signingOut } = useAppSelector(selectSession);
  if (!user || signingOut || user.isBanned) return null;
  return (
    <Suspense fallback={null}>
      <NotificationBell />
    </Suspense>
  );
}
