import { createSlice, type PayloadAction } from '@reduxjs/toolkit';
import type { DashboardCounters } from '@serendip/proto';
import { pushReceived } from '../system/system.slice';

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

export const { countersLoaded } = dashboardCountersSlice.actions;
export const dashboardCountersReducer = dashboardCountersSlice.reducer;
export const selectDashboardCounters = (state: { dashboardCounters: DashboardCountersState }) =>
  state.dashboardCounters.counters;
