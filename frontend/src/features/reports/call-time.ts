/** How Recent calls says when a call was and how long it lasted. */

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

const relative = new Intl.RelativeTimeFormat('en', { numeric: 'auto' });

/** 'just now', '5 minutes ago', '3 hours ago' (Recent calls covers one day, so hours are the largest unit). */
export function callStartedAgo(startedAt: string, now: number): string {
  const elapsed = Math.max(0, now - Date.parse(startedAt));
  if (elapsed < MINUTE) return 'just now';
  if (elapsed < HOUR) return relative.format(-Math.floor(elapsed / MINUTE), 'minute');
  return relative.format(-Math.floor(elapsed / HOUR), 'hour');
}

/** The local date and time, for the tooltip and for screen readers that want the exact moment. */
export function callStartedAt(startedAt: string): string {
  return new Date(startedAt).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });
}

/** '45 s', '4 min 12 s', '1 h 3 min'; null when the length is not known. */
export function callDuration({
  startedAt,
  endedAt,
  durationMs,
}: {
  startedAt: string;
  endedAt: string | null;
  durationMs: number | null;
}): string | null {
  const ms = durationMs ?? (endedAt ? Date.parse(endedAt) - Date.parse(startedAt) : NaN);
  if (!Number.isFinite(ms) || ms < 0) return null;
  const seconds = Math.round(ms / 1000);
  if (seconds < 60) return `${seconds} s`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return seconds % 60 ? `${minutes} min ${seconds % 60} s` : `${minutes} min`;
  const hours = Math.floor(minutes / 60);
  return minutes % 60 ? `${hours} h ${minutes % 60} min` : `${hours} h`;
}
