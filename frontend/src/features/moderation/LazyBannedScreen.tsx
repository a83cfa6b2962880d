import type { UserInfo } from '@serendip/proto';
import { lazy, Suspense } from 'react';
import { Spinner } from '../../ui/Spinner';

// Its own chunk: only a banned user ever downloads it (first-visit size budget).
const BannedScreen = lazy(() => import('./BannedScreen').then((m) => ({ default: m.BannedScreen })));

/** The banned screen as the guards show it (spec 2, 4): a spinner while its code arrives. */
export function LazyBannedScreen({ user }: { user: UserInfo }) {
  return (
    <Suspense fallback={<Spinner size="lg" label="Checking your ban status" />}>
      <BannedScreen user={user} />
    </Suspense>
  );
}
