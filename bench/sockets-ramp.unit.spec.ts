import { describe, expect, it } from 'vitest';
import {
  capacityRatio,
  dueAt,
  dueBy,
  lineId,
  parseLineId,
  rampCounts,
  stepFailure,
  type StepOutcome,
  windowSends,
} from './sockets-ramp.js';

describe('bench:sockets ramp', () => {
  it('ramps to the top through the default steps, in whole pairs', () => {
    expect(rampCounts(20_000)).toEqual([2_000, 5_000, 7_500, 10_000, 12_500, 15_000, 17_500, 20_000]);
    expect(rampCounts(19_900)).toEqual([2_000, 5_000, 7_500, 10_000, 12_500, 15_000, 17_500, 19_900]);
    expect(rampCounts(1_001)).toEqual([1_000]);
    expect(() => rampCounts(1)).toThrow('pair');
  });

  it('spreads every socket once a period, evenly', () => {
    const sockets = 4;
    const period = 3_000;
    expect([0, 1, 2, 3, 4].map((k) => dueAt(k, sockets, period))).toEqual([0, 750, 1_500, 2_250, 3_000]);
    expect(dueBy(-1, sockets, period)).toBe(0);
    expect(dueBy(0, sockets, period)).toBe(1);
    expect(dueBy(749, sockets, period)).toBe(1);
    expect(dueBy(750, sockets, period)).toBe(2);
    // Over one period each socket sends exactly once.
    expect(dueBy(period - 1, sockets, period)).toBe(sockets);
  });

  it('counts the sends due in a window, from inclusive, to exclusive', () => {
    expect(windowSends(3_000, 15_000, 10_000, 3_000)).toEqual({ first: 10_000, end: 50_000 });
    const { first, end } = windowSends(1_000, 2_000, 3, 3_000);
    expect([first, end]).toEqual([1, 2]);
    expect(dueAt(first, 3, 3_000)).toBeGreaterThanOrEqual(1_000);
    expect(dueAt(end - 1, 3, 3_000)).toBeLessThan(2_000);
  });

  it('reads back the send number and time a line carries', () => {
    expect(parseLineId(lineId(42, 1_795_727_407_730.125))).toEqual({ k: 42, sentAtMs: 1_795_727_407_730.13 });
    expect(lineId(1, 2).length).toBeLessThanOrEqual(64);
    expect(parseLineId('a-1')).toBeUndefined();
    expect(parseLineId('7')).toBeUndefined();
    expect(parseLineId(7)).toBeUndefined();
  });

  it('fails a step on sockets that did not open or pair, on loss, then on p99', () => {
    const ok: StepOutcome = {
      sockets: 100,
      connected: 100,
      paired: 100,
      sent: 10_000,
      delivered: 10_000,
      relayP99Ms: 49,
    };
    expect(stepFailure(ok)).toBeUndefined();
    expect(stepFailure({ ...ok, connected: 99 })).toBe('connect');
    expect(stepFailure({ ...ok, paired: 98 })).toBe('connect');
    expect(stepFailure({ ...ok, delivered: 9_990 })).toBeUndefined();
    expect(stepFailure({ ...ok, delivered: 9_989 })).toBe('loss');
    expect(stepFailure({ ...ok, sent: 0, delivered: 0 })).toBe('loss');
    expect(stepFailure({ ...ok, relayP99Ms: 50.1 })).toBe('p99');
    expect(stepFailure({ ...ok, relayP99Ms: NaN })).toBe('p99');
  });

  it('compares lines relayed per CPU-second, product over bare', () => {
    expect(capacityRatio({ delivered: 1_000, cpuSeconds: 2 }, { delivered: 1_000, cpuSeconds: 1 })).toBe(0.5);
    expect(capacityRatio({ delivered: 1_000, cpuSeconds: 1 }, { delivered: 500, cpuSeconds: 1 })).toBe(2);
    expect(capacityRatio({ delivered: 1_000, cpuSeconds: 0 }, { delivered: 1_000, cpuSeconds: 1 })).toBeNull();
  });
});
