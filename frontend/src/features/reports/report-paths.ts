/** The Recent calls page (a call can be reported from there for REPORT_WINDOW_HOURS after it ended). */
export const RECENT_CALLS_PATH = '/security-center/recent-calls';

/** Recent calls opening the Report dialog of one call at once (the feedback card's 'Report this call'). */
export function reportCallPath(matchId: string): string {
  return `${RECENT_CALLS_PATH}?report=${encodeURIComponent(matchId)}`;
}
