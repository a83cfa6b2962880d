import { MATCH_AGE, type MatchFilters } from '@serendip/proto';
import { countryNameOf } from '../../shared/country-names';

/** spec 9: "default 18 to 35 in one place" (the wizard's own default is not shown). */
export const DEFAULT_AGE_RANGE: [number, number] = [18, 35];
export const DEFAULT_FILTERS: MatchFilters = { gender: null, country: null, ageRange: DEFAULT_AGE_RANGE };

/** Where earlier versions kept the preferences in this browser (they are the account's now, on the server). */
const STORAGE_KEY = 'serendip.matchFilters';

/**
 * Signing out clears what earlier versions kept here: on a shared browser the next person must not find, or learn,
 * whom the last one was looking for.
 */
export function forgetFilters(storage: Pick<Storage, 'removeItem'> = localStorage): void {
  try {
    storage.removeItem(STORAGE_KEY);
  } catch {
    // Storage that cannot be written cannot hold them either.
  }
}

/** The whole range the slider allows: no age preference. */
export const ANY_AGE: [number, number] = [MATCH_AGE.min, MATCH_AGE.max];
export const isAnyAge = ([min, max]: [number, number]) => min === MATCH_AGE.min && max === MATCH_AGE.max;

/** spec 2 "Ready": the summary lines, 'Any' where unset. */
export function summarize(filters: MatchFilters): {
  gender: string;
  country: string;
  ageRange: string;
  interests: string;
} {
  return {
    gender: filters.gender === 'male' ? 'Male' : filters.gender === 'female' ? 'Female' : 'Any',
    country: filters.country ? countryNameOf(filters.country) : 'Any',
    ageRange: isAnyAge(filters.ageRange) ? 'Any' : `${filters.ageRange[0]} - ${filters.ageRange[1]}`,
    interests: filters.interests?.length ? filters.interests.join(', ') : 'None',
  };
}
