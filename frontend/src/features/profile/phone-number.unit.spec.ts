import { describe, expect, it } from 'vitest';
import {
  changePhoneCountry,
  countryFromUserCountry,
  countryOptions,
  initialPhoneDraft,
  type PhoneDraft,
  phoneToE164,
  typePhone,
} from './phone-number';

/** Types `text` one character at a time, as a person would. */
function typeInto(draft: PhoneDraft, text: string): PhoneDraft {
  return [...text].reduce((current, character) => typePhone(current, current.text + character), draft);
}

describe('phone number rules (spec 2, 5)', () => {
  it('finds the country from the ISO code the server stores', () => {
    expect(countryFromUserCountry('DE')).toBe('DE');
    expect(countryFromUserCountry('gb')).toBe('GB');
    expect(countryFromUserCountry(' CI ')).toBe('CI');
  });

  it('still matches an English name, as older rows hold', () => {
    expect(countryFromUserCountry('Germany')).toBe('DE');
    expect(countryFromUserCountry('united states')).toBe('US');
    expect(countryFromUserCountry("Cote d'Ivoire")).toBe('CI');
  });

  it("falls back to the US when the user's country is unknown or unmatched", () => {
    expect(countryFromUserCountry(null)).toBe('US');
    expect(countryFromUserCountry('')).toBe('US');
    expect(countryFromUserCountry('Atlantis')).toBe('US');
    expect(countryFromUserCountry('XX')).toBe('US');
  });

  it('lists countries by name with their calling codes', () => {
    const germany = countryOptions().find((option) => option.code === 'DE');
    expect(germany).toEqual({ code: 'DE', name: 'Germany', callingCode: '49' });
  });

  it('formats by the country mask as the user types and sends E.164', () => {
    const typed = typeInto({ country: 'US', text: '' }, '7021234567');
    expect(typed.text).toBe('(702) 123-4567');
    expect(phoneToE164(typed)).toBe('+17021234567');
  });

  it('keeps at most 15 digits', () => {
    const typed = typePhone({ country: 'US', text: '' }, '1234567890123456789');
    expect(typed.text.replace(/\D/g, '')).toBe('123456789012345');
  });

  it('removes a digit when backspace lands on a mask character', () => {
    expect(typePhone({ country: 'US', text: '(702) 1' }, '(702)1').text).toBe('(702)');
  });

  it('lets an international number pick its own country', () => {
    const typed = typeInto({ country: 'US', text: '' }, '+4915112345678');
    expect(typed.country).toBe('DE');
    expect(phoneToE164(typed)).toBe('+4915112345678');
  });

  it("shows a stored number under its own country, or the user's when they share the calling code", () => {
    expect(initialPhoneDraft('+4915112345678', 'US')).toEqual({ country: 'DE', text: '01511 2345678' });
    expect(initialPhoneDraft('+447911123456', 'GB').country).toBe('GB');
    expect(phoneToE164(initialPhoneDraft('+447911123456', 'GB'))).toBe('+447911123456');
    expect(initialPhoneDraft('+17021234567', 'DE')).toEqual({ country: 'US', text: '(702) 123-4567' });
    expect(initialPhoneDraft(null, 'FR')).toEqual({ country: 'FR', text: '' });
  });

  it('keeps the national number when the country changes, and clears to an empty string', () => {
    const german = changePhoneCountry(typeInto({ country: 'US', text: '' }, '7021234567'), 'DE');
    expect(german.country).toBe('DE');
    expect(phoneToE164(german)).toBe('+497021234567');
    expect(phoneToE164({ country: 'US', text: '' })).toBe('');
  });
});
