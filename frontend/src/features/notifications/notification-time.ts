const relative = new Intl.RelativeTimeFormat('en-US', { numeric: 'auto', style: 'short' });
const dated = new Intl.DateTimeFormat('en-US', { month: 'short', day: 'numeric', year: 'numeric' });
const full = new Intl.DateTimeFormat('en-US', { dateStyle: 'long', timeStyle: 'short' });

/** When a notification came, as the list says it: 'just now', '5 min. ago', 'yesterday', then the date. */
export function whenNotified(iso: string, now: number = Date.now()): string {
  const seconds = Math.round((now - Date.parse(iso)) / 1000);
  if (seconds < 45) return 'just now';
  const minutes = Math.round(seconds / 60);
  if (minutes < 60) return relative.format(-minutes, 'minute');
  const hours = Math.round(minutes / 60);
  if (hours < 24) return relative.format(-hours, 'hour');
  const days = Math.round(hours / 24);
  if (days < 7) return relative.format(-days, 'day');
  return dated.format(new Date(iso));
}

/** The full date and time, for the element's title and screen readers' datetime. */
export function notifiedAt(iso: string): string {
  return full.format(new Date(iso));
}
