import type { AppealStatusValue, BanHistoryEntry, BanRecordView, ViolationLevel } from '@serendip/proto';

/**
 * spec 2: a date in US English with long month, day, year, hour and minute ('November 26, 2026 at 3:04 PM'), in the
 * reader's own time zone. Some ICU versions put a narrow no-break space before AM/PM; it reads the same as a space.
 */
export function formatBanDate(iso: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  return date
    .toLocaleString('en-US', { month: 'long', day: 'numeric', year: 'numeric', hour: 'numeric', minute: '2-digit' })
    .replace(/\u202f/g, ' ');
}

/** spec 2 BANNED BY: first name and the last name's initial ('Ada L.'), or 'Unknown' when the account is gone. */
export function bannedByName(bannedByWho: BanRecordView['bannedByWho']): string {
  if (!bannedByWho) return 'Unknown';
  const first = bannedByWho.firstName.trim();
  const initial = bannedByWho.lastName.trim().charAt(0).toUpperCase();
  if (!first) return initial ? `${initial}.` : 'Unknown';
  return initial ? `${first} ${initial}.` : first;
}

export interface TimeLeft {
  days: number;
  hours: number;
  minutes: number;
  seconds: number;
}

/**
 * What is left of a timed ban at `now`, in whole seconds rounded up (the last second reads 1s, not 0s); null from the
 * expiry on (spec 4 "Ban": expired).
 */
export function timeLeft(expiryIso: string, now: number): TimeLeft | null {
  const left = Math.ceil((Date.parse(expiryIso) - now) / 1000);
  if (!(left > 0)) return null;
  return {
    days: Math.floor(left / 86_400),
    hours: Math.floor((left % 86_400) / 3_600),
    minutes: Math.floor((left % 3_600) / 60),
    seconds: left % 60,
  };
}

const two = (n: number) => String(n).padStart(2, '0');

/** The countdown as it reads: '2d 03h 04m 05s'. */
export function formatTimeLeft({ days, hours, minutes, seconds }: TimeLeft): string {
  return `${days}d ${two(hours)}h ${two(minutes)}m ${two(seconds)}s`;
}

/** spec 2 Appeal Status: approved green, pending yellow, rejected red, none grey (Badge tones). */
export const APPEAL_STATUS_LOOK: Record<
  AppealStatusValue,
  { label: string; tone: 'ok' | 'pending' | 'danger' | 'neutral' }
> = {
  approved: { label: 'Approved', tone: 'ok' },
  pending: { label: 'Pending', tone: 'pending' },
  rejected: { label: 'Rejected', tone: 'danger' },
  none: { label: 'None', tone: 'neutral' },
};

export const LEVEL_LABEL: Record<ViolationLevel, string> = { minor: 'Minor', moderate: 'Moderate', severe: 'Severe' };

/** How a ban in the history ended, as its badge reads. */
export function banOutcome(ended: BanHistoryEntry['ended']): { label: string; tone: 'ok' | 'neutral' | 'danger' } {
  if (!ended) return { label: 'Active', tone: 'danger' };
  switch (ended.how) {
    case 'expired':
      return { label: 'Expired', tone: 'neutral' };
    case 'unbanned':
      return { label: 'Lifted', tone: 'ok' };
    case 'appeal-approved':
      return { label: 'Appeal approved', tone: 'ok' };
    default: {
      const unknown: never = ended.how;
      throw new Error(`unknown ban ending ${String(unknown)}`);
    }
  }
}
