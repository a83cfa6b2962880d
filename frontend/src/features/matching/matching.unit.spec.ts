import { describe, expect, it } from 'vitest';
import { countryList } from './countries';
import { loadToggles } from './media-preferences';
import { networkQuality } from './network-quality';
import { ANY_AGE, DEFAULT_FILTERS, summarize } from './preferences';

const storage = (values: Record<string, string>) => ({ getItem: (key: string) => values[key] ?? null });

describe('video match helpers (spec 2, 3, 9)', () => {
  it('rates the network from the downlink: under 1 poor, under 5 good, else excellent; offline; unknown', () => {
    expect(networkQuality(true, 0.5)).toBe('poor');
    expect(networkQuality(true, 1)).toBe('good');
    expect(networkQuality(true, 4.9)).toBe('good');
    expect(networkQuality(true, 5)).toBe('excellent');
    expect(networkQuality(false, 10)).toBe('offline');
    expect(networkQuality(true, undefined)).toBe('unknown');
  });

  it("summarises the preferences with 'Any' where unset", () => {
    expect(summarize(DEFAULT_FILTERS)).toEqual({
      gender: 'Any',
      country: 'Any',
      ageRange: '18 - 35',
      interests: 'None',
    });
    expect(summarize({ gender: 'female', country: 'DE', ageRange: [20, 30], interests: ['chess', 'jazz'] })).toEqual({
      gender: 'Female',
      country: 'Germany',
      ageRange: '20 - 30',
      interests: 'chess, jazz',
    });
    // The whole slider is no preference at all.
    expect(summarize({ ...DEFAULT_FILTERS, ageRange: ANY_AGE }).ageRange).toBe('Any');
  });

  it('turns the camera and microphone on unless this browser turned them off (isMicOn, isCameraOn)', () => {
    expect(loadToggles(storage({}))).toEqual({ mic: true, camera: true });
    expect(loadToggles(storage({ isMicOn: 'false' }))).toEqual({ mic: false, camera: true });
  });

  it('lists the detected country first and finds countries by name', () => {
    const list = countryList('', 'DE');
    expect(list[0]).toEqual({ code: 'DE', name: 'Germany' });
    expect(list.length).toBeGreaterThan(190);
    expect(countryList('zeal', null).map((c) => c.code)).toEqual(['NZ']);
    expect(countryList('united', 'US')[0]?.code).toBe('US');
  });

  it('finds a country typed without its accents, or by a common short name', () => {
    expect(countryList('cote', null).map((c) => c.code)).toEqual(['CI']);
    expect(countryList('Aland', null).map((c) => c.code)).toEqual(['AX', 'NZ']);
    expect(countryList('usa', null).map((c) => c.code)).toEqual(['US']);
    expect(countryList('uk', null).map((c) => c.code)).toEqual(['GB', 'UA']);
  });
});
