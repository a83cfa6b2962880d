import { describe, expect, it } from 'vitest';
import { callDuration, callStartedAgo } from './call-time';

const NOW = Date.parse('2026-11-20T12:00:00Z');
const ago = (ms: number) => new Date(NOW - ms).toISOString();

describe('how Recent calls says when and how long', () => {
  it('says how long ago a call started, in minutes then hours', () => {
    expect(callStartedAgo(ago(20_000), NOW)).toBe('just now');
    expect(callStartedAgo(ago(60_000), NOW)).toBe('1 minute ago');
    expect(callStartedAgo(ago(59 * 60_000), NOW)).toBe('59 minutes ago');
    expect(callStartedAgo(ago(5 * 60 * 60_000 + 1), NOW)).toBe('5 hours ago');
  });

  it('says how long it lasted', () => {
    const call = (durationMs: number | null, endedAt: string | null = ago(0)) => ({
      startedAt: ago(10 * 60_000),
      endedAt,
      durationMs,
    });
    expect(callDuration(call(45_000))).toBe('45 s');
    expect(callDuration(call(252_000))).toBe('4 min 12 s');
    expect(callDuration(call(240_000))).toBe('4 min');
    expect(callDuration(call(3_780_000))).toBe('1 h 3 min');
    // The length comes from the end when the server gave none; unknown when neither is there.
    expect(callDuration(call(null))).toBe('10 min');
    expect(callDuration(call(null, null))).toBeNull();
  });
});
