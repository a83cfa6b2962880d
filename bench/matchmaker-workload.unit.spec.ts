import { describe, expect, it } from 'vitest';
import { INTEREST_TAGS, seekerFactory } from './matchmaker-workload.js';

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

  it('with interests on, is the same crowd, 30 % of it with 1 to 3 interests, the top interest far ahead', () => {
    const plain = Array.from({ length: 20_000 }, seekerFactory(3));
    const crowd = Array.from({ length: 20_000 }, seekerFactory(3, 'u', true));
    expect(crowd.map(({ filters: { interests: _, ...filters }, ...s }) => ({ ...s, filters }))).toEqual(plain);
    const tagged = crowd.filter((s) => s.filters.interests);
    expect(tagged.length / crowd.length).toBeCloseTo(0.3, 1);
    const count = (tag: string) => tagged.filter((s) => s.filters.interests!.includes(tag)).length;
    for (const s of tagged) {
      expect(s.filters.interests!.length).toBeGreaterThanOrEqual(1);
      expect(s.filters.interests!.length).toBeLessThanOrEqual(3);
      expect(new Set(s.filters.interests).size).toBe(s.filters.interests!.length);
    }
    expect(count(INTEREST_TAGS[0]!)).toBeGreaterThan(5 * count(INTEREST_TAGS[9]!));
  });
});
