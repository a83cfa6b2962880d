import { createSlice, type WithSlice } from '@reduxjs/toolkit';
import type { DashReport } from '@serendip/proto';
import { rootReducer } from '../../../app/store';
import { pushReceived } from '../../../features/system/system.slice';

/** How many live arrivals are kept for the report table (older ones are on the server's pages anyway). */
const ARRIVALS_KEPT = 100;

export interface StaffReportsState {
  /** Reports filed since the app started, newest first (reportFiled pushes to staff). */
  arrivals: DashReport[];
  /** The latest word on each report reviewed since (reportResolved pushes), by id. */
  reviewed: Record<string, DashReport>;
}

const initialState: StaffReportsState = { arrivals: [], reviewed: {} };

/**
 * The dashboard's live report feed (the system socket's reportFiled and reportResolved, staff only): the report table
 * shows a new report without a reload, and a report another moderator reviewed shows its outcome at once.
 */
const staffReportsSlice = createSlice({
  name: 'staffReports',
  initialState,
  reducers: {},
  extraReducers: (builder) => {
    builder.addCase(pushReceived, (state, { payload: push }) => {
      if (push.event !== 'reportFiled' && push.event !== 'reportResolved') return;
      const { eventId: _eventId, ...report } = push.payload;
      if (push.event === 'reportFiled') {
        if (state.arrivals.some((r) => r._id === report._id)) return;
        state.arrivals.unshift(report);
        state.arrivals.splice(ARRIVALS_KEPT);
      } else {
        state.reviewed[report._id] = report;
      }
    });
  },
});

declare module '../../../app/store' {
  // Declaration merging: the store's lazy slices gain this one.
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type
  export interface LazyLoadedSlices extends WithSlice<typeof staffReportsSlice> {}
}

// Added to the store when the dashboard's chunk loads: a user's first visit carries none of it.
const injected = staffReportsSlice.injectInto(rootReducer);

type State = Parameters<typeof injected.selectSlice>[0];
export const selectReportArrivals = (state: State) => injected.selectSlice(state).arrivals;
export const selectReviewedReports = (state: State) => injected.selectSlice(state).reviewed;
