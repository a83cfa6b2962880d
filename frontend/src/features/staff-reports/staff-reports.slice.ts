import { createSlice } from '@reduxjs/toolkit';
import type { DashReport } from '@serendip/proto';
import { pushReceived } from '../system/system.slice';

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

export const staffReportsReducer = staffReportsSlice.reducer;
export const selectReportArrivals = (state: { staffReports: StaffReportsState }) => state.staffReports.arrivals;
export const selectReviewedReports = (state: { staffReports: StaffReportsState }) => state.staffReports.reviewed;
