import type { DashboardCounters, DashReport } from '@serendip/proto';
import { useCallback, useSyncExternalStore } from 'react';
import { useAppStore } from '../../app/hooks';
import { tapPushes } from '../../features/system/push-taps';

/** How many live report arrivals are kept for the table (older ones are on the server's pages anyway). */
const ARRIVALS_KEPT = 100;

export interface DashboardLive {
  /** The overview's figures, from GET /api/dash/overview or the latest dashboardCounters push; null until one. */
  counters: DashboardCounters | null;
  /** When the server counted them (ISO): an older answer never replaces newer figures. */
  at: string | null;
  /** Reports filed since the dashboard opened, newest first (reportFiled pushes). */
  arrivals: DashReport[];
  /** The latest word on each report reviewed since (reportResolved pushes), by id. */
  reviewed: Record<string, DashReport>;
  /** How many times the appeals queue changed since the dashboard opened (appealQueueChanged pushes). */
  appealQueueChanges: number;
}

const EMPTY: DashboardLive = { counters: null, at: null, arrivals: [], reviewed: {}, appealQueueChanges: 0 };

interface Live {
  state: DashboardLive;
  listeners: Set<() => void>;
}

/**
 * The dashboard's live state (spec 2 "Admin dashboard"): staff's system sockets get dashboardCounters, reportFiled,
 * reportResolved and appealQueueChanged; the overview's cards, the review bell, the report table and the appeals
 * queue read them here. It lives in the
 * dashboard's chunk, one per store (tests make many), not in the app's store: a user's first visit carries none of it.
 */
const lives = new WeakMap<object, Live>();

function liveOf(store: { getState: () => unknown }): Live {
  // getState is the store's own function, the same object for every middleware and component of that store.
  let live = lives.get(store.getState);
  if (!live) {
    live = { state: EMPTY, listeners: new Set() };
    lives.set(store.getState, live);
  }
  return live;
}

function update(live: Live, change: (state: DashboardLive) => DashboardLive) {
  const next = change(live.state);
  if (next === live.state) return;
  live.state = next;
  for (const listener of live.listeners) listener();
}

const isNewer = (state: DashboardLive, at: string) => state.at === null || at >= state.at;

function countersOf(state: DashboardLive, counters: DashboardCounters, at: string): DashboardLive {
  return isNewer(state, at) ? { ...state, counters, at } : state;
}

tapPushes((push, store) => {
  const live = liveOf(store);
  switch (push.event) {
    case 'dashboardCounters':
      return update(live, (s) => countersOf(s, push.payload.counters, push.payload.at));
    case 'reportFiled': {
      const { eventId: _eventId, ...report } = push.payload;
      return update(live, (s) =>
        s.arrivals.some((r) => r._id === report._id)
          ? s
          : { ...s, arrivals: [report, ...s.arrivals].slice(0, ARRIVALS_KEPT) },
      );
    }
    case 'reportResolved': {
      const { eventId: _eventId, ...report } = push.payload;
      return update(live, (s) => ({ ...s, reviewed: { ...s.reviewed, [report._id]: report } }));
    }
    case 'appealQueueChanged':
      return update(live, (s) => ({ ...s, appealQueueChanges: s.appealQueueChanges + 1 }));
    default:
      return undefined;
  }
});

/** One part of the dashboard's live state, re-rendering when it changes. */
export function useDashboardLive<T>(select: (state: DashboardLive) => T): T {
  const live = liveOf(useAppStore());
  const subscribe = useCallback(
    (listener: () => void) => {
      live.listeners.add(listener);
      return () => live.listeners.delete(listener);
    },
    [live],
  );
  return useSyncExternalStore(subscribe, () => select(live.state));
}

/** The figures an answer brought (GET /api/dash/overview): kept unless a newer push came first. */
export function useCountersLoaded(): (counters: DashboardCounters, at: string) => void {
  const live = liveOf(useAppStore());
  return useCallback((counters, at) => update(live, (s) => countersOf(s, counters, at)), [live]);
}
