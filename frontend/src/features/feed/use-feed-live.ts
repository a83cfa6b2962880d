import { isStaff } from '@serendip/proto';
import { useEffect, useRef } from 'react';
import { useAppSelector, useAppStore } from '../../app/hooks';
import { selectCurrentUser } from '../auth/session.selectors';
import { tapPushes } from '../system/push-taps';
import { changeOf, type FeedChange, isFeedPush, type Viewer } from './feed-merge';

/** The signed-in user as the feed's rules need them (the guard lets only signed-in users onto feed pages). */
export function useViewer(): Viewer & { isStaff: boolean } {
  const user = useAppSelector(selectCurrentUser);
  return { userId: user?._id ?? '', isAdmin: user?.isAdmin ?? false, isStaff: user ? isStaff(user.role) : false };
}

/**
 * Calls `onChange` for every feed push (spec 7) that spec 5's rules let through, while the page is open. The pushes
 * are tapped from the system socket (push-taps.ts), not kept in the app's store: the feed's code stays in its own
 * chunk, out of a first visit.
 */
export function useFeedChanges(onChange: (change: FeedChange) => void): void {
  const store = useAppStore();
  const viewer = useViewer();
  const latest = useRef({ onChange, viewer });
  useEffect(() => {
    latest.current = { onChange, viewer };
  });
  useEffect(
    () =>
      tapPushes((push, from) => {
        // Taps hear every store's pushes (tests make many stores): only this page's store counts.
        if (from.getState !== store.getState || !isFeedPush(push)) return;
        const change = changeOf(push, latest.current.viewer);
        if (change) latest.current.onChange(change);
      }),
    [store],
  );
}
