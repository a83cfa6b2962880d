import { describe, expect, it } from 'vitest';
import { bannedByName, banOutcome, formatBanDate, formatTimeLeft, timeLeft } from './ban-display';

describe('how the banned screen writes a ban (spec 2)', () => {
  it('writes dates in US English with long month, day, year, hour and minute, in local time', () => {
    expect(formatBanDate(new Date(2026, 10, 26, 15, 4).toISOString())).toBe('November 26, 2026 at 3:04 PM');
    expect(formatBanDate(new Date(2027, 0, 5, 0, 30).toISOString())).toBe('January 5, 2027 at 12:30 AM');
  });

  it('names who banned by first name and last initial, or Unknown', () => {
    expect(bannedByName({ firstName: 'Ada', lastName: 'Lovelace' })).toBe('Ada L.');
    expect(bannedByName({ firstName: 'Ada', lastName: 'lovelace' })).toBe('Ada L.');
    expect(bannedByName({ firstName: 'Ada', lastName: '' })).toBe('Ada');
    expect(bannedByName(null)).toBe('Unknown');
  });

  it('counts down in days, hours, minutes and seconds, and stops at the expiry', () => {
    const expiry = new Date(Date.UTC(2030, 0, 3, 5, 6, 7)).toISOString();
    const now = Date.UTC(2030, 0, 1, 0, 0, 0);
    expect(formatTimeLeft(timeLeft(expiry, now)!)).toBe('2d 05h 06m 07s');
    expect(formatTimeLeft(timeLeft(expiry, Date.parse(expiry) - 1_500)!)).toBe('0d 00h 00m 02s');
    expect(formatTimeLeft(timeLeft(expiry, Date.parse(expiry) - 1)!)).toBe('0d 00h 00m 01s');
    expect(timeLeft(expiry, Date.parse(expiry))).toBeNull();
    expect(timeLeft(expiry, Date.parse(expiry) + 60_000)).toBeNull();
  });

  it('says how a ban in the history ended', () => {
    expect(banOutcome(null).label).toBe('Active');
    expect(banOutcome({ at: '2026-01-01T00:00:00Z', how: 'expired' }).label).toBe('Expired');
    expect(banOutcome({ at: '2026-01-01T00:00:00Z', how: 'unbanned' }).label).toBe('Lifted');
    expect(banOutcome({ at: '2026-01-01T00:00:00Z', how: 'appeal-approved' }).label).toBe('Appeal approved');
  });
});
