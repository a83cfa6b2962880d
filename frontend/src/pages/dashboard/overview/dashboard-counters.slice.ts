import { createSlice, type PayloadAction, type WithSlice } from '@reduxjs/toolkit';
import type { DashboardCounters } from '@serendip/proto';
import { rootReducer } from '../../../app/store';
import { pushReceived } from '../../../features/system/system.slice';

export interface DashboardCountersState {
  /** The overview's live figures, from GET /api/dash/overview or the latest dashboardCounters push; null until one. */
  counters: DashboardCounters | null;
  /** When the server counted them (ISO): an older answer never replaces newer figures. */
  at: string | null;
}

const initialState: DashboardCountersState = { counters: null, at: null };

const isNewer = (state: DashboardCountersState, at: string) => state.at === null || at >= state.at;

/**
 * The dashboard's live counters (spec 2 "Admin dashboard"): the overview's cards and the header's review bell read
 * them. Staff's system sockets get dashboardCounters when they change; nobody else's do.
 */
const dashboardCountersSlice = createSlice({
  name: 'dashboardCounters',
  initialState,
  reducers: {
    countersLoaded(state, action: PayloadAction<{ counters: DashboardCounters; at: string }>) {
      if (!isNewer(state, action.payload.at)) return;
      state.counters = action.payload.counters;
      state.at = action.payload.at;
    },
  },
  extraReducers: (builder) => {
    builder.addCase(pushReceived, (state, { payload: push }) => {
      if (push.event !== 'dashboardCounters' || !isNewer(state, push.payload.at)) return;
      state.counters = push.payload.counters;
      state.at = push.payload.at;
    });
  },
});

declare module '../../../app/store' {
  // Declaration merging: the store's lazy slices gain this one.
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type
  export interface LazyLoadedSlices extends WithSlice<typeof dashboardCountersSlice> {}
}

// Added to the store when the dashboard's chunk loads: a user's first visit carries none of it.
const injected = dashboardCountersSlice.injectInto(rootReducer);

export const { countersLoaded } = dashboardCountersSlice.actions;
export const selectDashboardCounters = (state: Parameters<typeof injected.selectSlice>[0]) =>
  injected.selectSlice(state).counters;
