import { describe, expect, it } from 'vitest';
import { backoffDelay, sleep } from '../shared/backoff.js';
import { RecentIds } from './recent-ids.js';

describe('RecentIds', () => {
  it('remembers ids up to its capacity, forgetting the oldest first', () => {
    const ids = new RecentIds(3);
    for (const id of ['a', 'b', 'c']) ids.remember(id);
    expect(['a', 'b', 'c'].map((id) => ids.has(id))).toEqual([true, true, true]);
    ids.remember('d');
    expect(['a', 'b', 'c', 'd'].map((id) => ids.has(id))).toEqual([false, true, true, true]);
  });

  it('forgets an id once its window has passed, so a subscriber that lives for hours holds only the last minutes', () => {
    let now = 0;
    const ids = new RecentIds(10_000, 60_000, () => now);
    for (let i = 0; i < 1_000; i++) ids.remember(`early-${i}`);
    now = 59_999;
    ids.remember('late');
    expect([ids.has('early-0'), ids.size]).toEqual([true, 1_001]);
    now = 60_000;
    ids.remember('later');
    expect([ids.has('early-999'), ids.has('late'), ids.has('later'), ids.size]).toEqual([false, true, true, 2]);
  });

  it('takes an id forgotten and remembered again as new, and keeps it past its first place', () => {
    const ids = new RecentIds(2);
    ids.remember('a');
    ids.forget('a');
    ids.remember('b');
    ids.remember('a');
    ids.remember('c');
    expect(['a', 'b', 'c'].map((id) => ids.has(id))).toEqual([true, false, true]);
    for (let i = 0; i < 5_000; i++) ids.remember(`n${i}`);
    expect([ids.size, ids.has('n4998'), ids.has('n4999'), ids.has('n4997')]).toEqual([2, true, true, false]);
  });

  it('does not count a repeat twice', () => {
    const ids = new RecentIds(2);
    ids.remember('a');
    ids.remember('a');
    ids.remember('b');
    expect(ids.has('a')).toBe(true);
  });
});

describe('backoff', () => {
  it('doubles from the base up to the cap, with at most 20% jitter below', () => {
    for (const [attempt, exact] of [
      [0, 100],
      [1, 200],
      [3, 800],
      [10, 5_000],
      [1_000, 5_000],
    ] as const) {
      const delay = backoffDelay(attempt, 100, 5_000);
      expect(delay).toBeGreaterThanOrEqual(exact * 0.8);
      expect(delay).toBeLessThanOrEqual(exact);
    }
  });

  it('sleep ends early when aborted', async () => {
    const abort = new AbortController();
    const started = Date.now();
    const slept = sleep(10_000, abort.signal);
    abort.abort();
    await slept;
    expect(Date.now() - started).toBeLessThan(1_000);
  });
});
