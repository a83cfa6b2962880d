import { MATCH_AGE, type MatchFilters } from '@serendip/proto';
import { countryNameOf } from '../../shared/country-names';

/** spec 9: "default 18 to 35 in one place" (the wizard's own default is not shown). */
export const DEFAULT_AGE_RANGE: [number, number] = [18, 35];
export const DEFAULT_FILTERS: MatchFilters = { gender: null, country: null, ageRange: DEFAULT_AGE_RANGE };

const STORAGE_KEY = 'serendip.matchFilters';

/** The last preferences this browser used, so a returning user starts where they left off. */
export function loadFilters(storage: Pick<Storage, 'getItem'> = localStorage): MatchFilters {
  try {
    const saved = JSON.parse(storage.getItem(STORAGE_KEY) ?? 'null') as Partial<MatchFilters> | null;
    if (!saved) return DEFAULT_FILTERS;
    const gender = saved.gender === 'male' || saved.gender === 'female' ? saved.gender : null;
    const country = typeof saved.country === 'string' && /^[A-Z]{2}$/.test(saved.country) ? saved.country : null;
    const [min, max] = Array.isArray(saved.ageRange) ? saved.ageRange : DEFAULT_AGE_RANGE;
    const valid = (n: unknown): n is number =>
      typeof n === 'number' && Number.isInteger(n) && n >= MATCH_AGE.min && n <= MATCH_AGE.max;
    const ageRange: [number, number] = valid(min) && valid(max) && min <= max ? [min, max] : DEFAULT_AGE_RANGE;
    return { gender, country, ageRange };
  } catch {
    return DEFAULT_FILTERS;
  }
}

export function saveFilters(filters: MatchFilters, storage: Pick<Storage, 'setItem'> = localStorage): void {
  try {
    storage.setItem(STORAGE_KEY, JSON.stringify(filters));
  } catch {
    // Private mode or a full storage: the preferences just are not remembered.
  }
}

/**
 * Signing out forgets them: on a shared browser the next person must not find, or learn, whom the last one was
 * looking for.
 */
export function forgetFilters(storage: Pick<Storage, 'removeItem'> = localStorage): void {
  try {
    storage.removeItem(STORAGE_KEY);
  } catch {
    // Storage that cannot be written cannot hold them either.
  }
}

/** spec 2 "Ready": the summary lines, 'Any' where unset. */
export function summarize(filters: MatchFilters): { gender: string; country: string; ageRange: string } {
  return {
    gender: filters.gender === 'male' ? 'Male' : filters.gender === 'female' ? 'Female' : 'Any',
    country: filters.country ? countryNameOf(filters.country) : 'Any',
    ageRange: `${filters.ageRange[0]} - ${filters.ageRange[1]}`,
  };
}
