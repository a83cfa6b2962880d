import {
  AsYouType,
  type CountryCode,
  getCountries,
  getCountryCallingCode,
  isSupportedCountry,
  parsePhoneNumberFromString,
} from 'libphonenumber-js';
import metadata from 'libphonenumber-js/min/metadata';
import { PROFILE_LIMITS } from '@serendip/proto';
import { countryNameOf } from '../../shared/country-names';

/**
 * The phone field's rules (spec 2 "Profile settings screen", spec 5): a country whose mask formats the number as it
 * is typed, at most 15 digits, sent as E.164. Pure functions over libphonenumber-js, so the field stays thin.
 */

/** spec 2: the dropdown's country when the user's own cannot be matched. */
export const FALLBACK_COUNTRY: CountryCode = 'US';

export interface CountryOption {
  code: CountryCode;
  name: string;
  callingCode: string;
}

/** What the field holds: the country picked and the number as shown (formatted). */
export interface PhoneDraft {
  country: CountryCode;
  text: string;
}

/** 'Côte d’Ivoire' and "cote d'ivoire" are the same country. */
function comparable(name: string): string {
  return name
    .normalize('NFD')
    .replace(/\p{Diacritic}/gu, '')
    .toLowerCase()
    .replace(/&/g, 'and')
    .replace(/[^a-z]/g, '');
}

let options: CountryOption[] | undefined;
let codesByName: Map<string, CountryCode> | undefined;

/** Every country libphonenumber knows, by English name. */
export function countryOptions(): readonly CountryOption[] {
  options ??= getCountries()
    .map((code) => ({ code, name: countryNameOf(code), callingCode: getCountryCallingCode(code) }))
    .sort((a, b) => a.name.localeCompare(b.name, 'en'));
  return options;
}

/**
 * The dropdown's default from the user's country, which the server stores as an ISO alpha-2 code ('DE'). An English
 * name ('Germany', from older rows) is matched too. Anything unmatched, or no country at all, is the US (spec 2).
 */
export function countryFromUserCountry(country: string | null | undefined): CountryCode {
  const text = country?.trim() ?? '';
  if (text === '') return FALLBACK_COUNTRY;
  const code = text.toUpperCase();
  if (isSupportedCountry(code)) return code;
  codesByName ??= new Map(countryOptions().map((option) => [comparable(option.name), option.code]));
  return codesByName.get(comparable(text)) ?? FALLBACK_COUNTRY;
}

/** The first country of a calling code is its main one ('1' -> US, '7' -> RU). */
function mainCountryOf(callingCode: string): CountryCode | undefined {
  const codes = (metadata.country_calling_codes as Record<string, string[] | undefined>)[callingCode];
  const first = codes?.[0];
  return first && (getCountries() as string[]).includes(first) ? (first as CountryCode) : undefined;
}

function digitsOf(text: string): string {
  return text.replace(/\D/g, '');
}

function format(country: CountryCode, input: string): AsYouType {
  const formatter = new AsYouType(country);
  formatter.input(input);
  return formatter;
}

/**
 * What the field shows for the stored number. The number's own country wins over the user's; the user's is kept
 * when both share a calling code, since a code like +44 alone cannot tell the UK from Guernsey.
 */
export function initialPhoneDraft(stored: string | null | undefined, defaultCountry: CountryCode): PhoneDraft {
  const phone = stored ? parsePhoneNumberFromString(stored) : undefined;
  if (!phone) return { country: defaultCountry, text: stored ?? '' };
  const country =
    getCountryCallingCode(defaultCountry) === phone.countryCallingCode
      ? defaultCountry
      : (phone.country ?? mainCountryOf(phone.countryCallingCode) ?? defaultCountry);
  // The national form with its trunk prefix ('01511 2345678'), as people write their own number.
  return { country, text: new AsYouType(country).input(phone.formatNational()) };
}

/**
 * The field after the user typed: digits only (a leading + starts an international number, whose code then picks
 * the country), at most 15 of them (spec 5), formatted by the country's mask.
 */
export function typePhone(previous: PhoneDraft, typed: string): PhoneDraft {
  const international = typed.trimStart().startsWith('+');
  let digits = digitsOf(typed).slice(0, PROFILE_LIMITS.phoneMaxDigits);
  // Backspace over a mask character ')' or '-' removed no digit: remove the digit before it instead, or the mask
  // would put the character straight back.
  const maskCharacterDeleted =
    typed.length < previous.text.length &&
    digits === digitsOf(previous.text) &&
    international === previous.text.trimStart().startsWith('+');
  if (maskCharacterDeleted) digits = digits.slice(0, -1);
  const formatter = new AsYouType(previous.country);
  const text = formatter.input(international ? `+${digits}` : digits);
  let country = previous.country;
  const callingCode = formatter.getCallingCode();
  if (international && callingCode && callingCode !== getCountryCallingCode(previous.country)) {
    country = formatter.getCountry() ?? mainCountryOf(callingCode) ?? previous.country;
  }
  return { country, text };
}

/** The user picked another country: the number keeps its national part under the new calling code. */
export function changePhoneCountry(previous: PhoneDraft, country: CountryCode): PhoneDraft {
  const national = format(previous.country, previous.text).getNationalNumber();
  return { country, text: national === '' ? '' : new AsYouType(country).input(national) };
}

/** What is sent: E.164 ('+17021234567'), or '' to clear the number. The server says whether it is valid. */
export function phoneToE164(draft: PhoneDraft): string {
  const digits = digitsOf(draft.text);
  if (digits === '') return '';
  const international = draft.text.trimStart().startsWith('+');
  const number = format(draft.country, international ? `+${digits}` : digits).getNumberValue();
  if (number) return number;
  return international ? `+${digits}` : `+${getCountryCallingCode(draft.country)}${digits}`;
}
