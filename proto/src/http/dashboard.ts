import type { SfuLoad } from '../sfu/rpc.js';

/** The overview's live figures (spec 2 "Admin dashboard"): what GET /api/dash/overview and `dashboardCounters` carry. */
export interface DashboardCounters {
  /** Distinct signed-in users with the app open (a system socket) on any node. */
  onlineNow: number;
  /** Waiting for a match now. */
  searching: number;
  /** Calls on now... */
  inCalls: number;
  /** ...and those of them relayed through the SFU. */
  relayedCalls: number;
  /** Reports filed since midnight UTC. */
  reportsToday: number;
  /** Reports not reviewed yet (the review bell). */
  openReports: number;
  /** Appeals not decided yet (the review bell). */
  openAppeals: number;
  /** Bans in force. */
  activeBans: number;
}

/** One hour of the last 24 (ISO start of the hour, UTC). Medians are null in an hour without a sample. */
export interface DashboardHour {
  hour: string;
  matches: number;
  /** Median wait before a pairing, of the calls paired that hour (the side that waited longer). */
  medianWaitMs: number | null;
  /** Median length of the calls that ended that hour. */
  medianCallMs: number | null;
}

/** One day of the last 14 (YYYY-MM-DD, UTC). */
export interface DashboardDay {
  day: string;
  reports: number;
  bans: number;
  /** Calls paired that day that stayed peer to peer... */
  p2p: number;
  /** ...and those relayed through the SFU. */
  relayed: number;
}

/** GET /api/dash/overview (staff). */
export interface DashboardOverview {
  counters: DashboardCounters;
  charts: { hours: DashboardHour[]; days: DashboardDay[] };
  /** The SFU nodes' load, as GET /api/admin/media reports it. */
  sfu: SfuLoad[];
  /** When the answer was made (ISO). */
  at: string;
}
