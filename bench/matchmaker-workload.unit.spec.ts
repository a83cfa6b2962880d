import { describe, expect, it } from 'vitest';
import { seekerFactory } from './matchmaker-workload.js';

describe('the matchmaker benchmark crowd', () => {
  it('is the same crowd for the same seed', () => {
    const a = seekerFactory(42);
    const b = seekerFactory(42);
    expect(Array.from({ length: 50 }, a)).toEqual(Array.from({ length: 50 }, b));
  });

  it('is mostly men wanting women, half with a country filter, the top country far ahead (Zipf)', () => {
    const next = seekerFactory(1);
    const crowd = Array.from({ length: 20_000 }, next);
    const share = (test: (s: (typeof crowd)[0]) => boolean) => crowd.filter(test).length / crowd.length;
    expect(share((s) => s.gender === 'male')).toBeCloseTo(0.7, 1);
    expect(share((s) => s.gender === 'male' && s.filters.gender === 'female')).toBeCloseTo(0.56, 1);
    expect(share((s) => s.filters.country !== null)).toBeCloseTo(0.5, 1);
    expect(share((s) => s.country === 'US')).toBeGreaterThan(3 * share((s) => s.country === 'GB'));
    for (const s of crowd) {
      expect(s.filters.ageRange[0]).toBeLessThanOrEqual(s.filters.ageRange[1]);
      expect(s.age).toBeGreaterThanOrEqual(18);
    }
  });
});
