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

/** Names people type for a country that its English name does not contain. */
const ALIASES: Record<string, string> = { usa: 'US', america: 'US', uk: 'GB', britain: 'GB', england: 'GB', uae: 'AE' };

/** Lower case without accents, so 'cote' finds Côte d'Ivoire and 'aland' Åland Islands. */
const folded = (text: string) => text.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();
const FOLDED_NAMES = new Map(COUNTRIES.map((c) => [c.code, folded(c.name)]));

/** spec 2: the detected country first; then those whose name or code contains the search. */
export function countryList(search: string, detected: string | null): CountryOption[] {
  const needle = folded(search.trim());
  const matches = needle
    ? COUNTRIES.filter(
        (c) =>
          FOLDED_NAMES.get(c.code)!.includes(needle) || c.code.toLowerCase() === needle || ALIASES[needle] === c.code,
      )
    : COUNTRIES;
  // The detected country first (spec 2), then the one a short name such as 'uk' stands for.
  const front = [detected, ALIASES[needle]].flatMap((code) => matches.filter((c) => c.code === code));
  return [...new Set([...front, ...matches])];
}
