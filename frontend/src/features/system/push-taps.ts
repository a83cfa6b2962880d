import type { Middleware } from '@reduxjs/toolkit';
import type { SystemPush } from './system-socket';
import { pushReceived } from './system.slice';

/** Who heard a push: the store it reached (its getState, one per store), for state kept outside Redux. */
export type PushTap = (push: SystemPush, store: { getState: () => unknown }) => void;

const taps = new Set<PushTap>();

/**
 * Lets a lazy chunk follow the system socket's pushes without adding a reducer to the store: the dashboard keeps its
 * live state in its own chunk, so a user's first visit carries none of it.
 */
export function tapPushes(tap: PushTap): () => void {
  taps.add(tap);
  return () => taps.delete(tap);
}

export const pushTapMiddleware: Middleware = (store) => (next) => (action) => {
  const result = next(action);
  if (pushReceived.match(action)) for (const tap of taps) tap(action.payload, store);
  return result;
};
