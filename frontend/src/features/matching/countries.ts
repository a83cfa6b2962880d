import flagIconCountries from 'flag-icons/country.json';
import { countryNameOf } from '../../shared/country-names';

export interface CountryOption {
  /** ISO 3166-1 alpha-2, upper case ('DE'). */
  code: string;
  name: string;
}

/** spec 3 "Country lookup": every ISO country flag-icons draws, named in English, A to Z. */
export const COUNTRIES: CountryOption[] = (flagIconCountries as { code: string; iso: boolean }[])
  .filter((c) => c.iso)
  .map((c) => ({ code: c.code.toUpperCase(), name: countryNameOf(c.code) }))
  .sort((x, y) => x.name.localeCompare(y.name, 'en'));

/** spec 2: the detected country first; then those whose name or code contains the search. */
export function countryList(search: string, detected: string | null): CountryOption[] {
  const needle = search.trim().toLowerCase();
  const matches = needle
    ? COUNTRIES.filter((c) => c.name.toLowerCase().includes(needle) || c.code.toLowerCase() === needle)
    : COUNTRIES;
  const first = matches.find((c) => c.code === detected);
  return first ? [first, ...matches.filter((c) => c !== first)] : matches;
}
