import { describe, expect, it } from 'vitest';
import { percentile, summarize, timeEach } from './harness.js';

describe('benchmark harness', () => {
  it('takes nearest-rank percentiles', () => {
    const hundred = Array.from({ length: 100 }, (_, i) => i + 1);
    expect(percentile(hundred, 50)).toBe(50);
    expect(percentile(hundred, 99)).toBe(99);
    expect(percentile(hundred, 100)).toBe(100);
    expect(percentile([7], 99)).toBe(7);
  });

  it('refuses what has no answer', () => {
    expect(() => percentile([], 50)).toThrow('no samples');
    expect(() => percentile([1], 101)).toThrow('not between');
  });

  it('summarizes unsorted samples', () => {
    expect(summarize([5, 1, 3, 2, 4])).toEqual({ p50Ms: 3, p99Ms: 5 });
  });

  it('times every call and counts them', async () => {
    const seen: number[] = [];
    const result = await timeEach(20, (i) => seen.push(i));
    expect(seen).toEqual(Array.from({ length: 20 }, (_, i) => i));
    expect(result.count).toBe(20);
    expect(result.perSec).toBeGreaterThan(0);
    expect(result.p99Ms).toBeGreaterThanOrEqual(result.p50Ms);
  });
});
