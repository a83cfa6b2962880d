import type { UserInfo } from '@serendip/proto';
import { ageOn, parseCalendarDate } from '../auth/age';
import { countryNameOf } from '../../shared/country-names';

/** spec 2: a read-only value the server does not know reads 'Unknown'. */
export const UNKNOWN = 'Unknown';

function known(value: string | null | undefined): string | null {
  const text = value?.trim() ?? '';
  return text === '' ? null : text;
}

export function shownOrUnknown(value: string | null | undefined): string {
  return known(value) ?? UNKNOWN;
}

/** The server stores an ISO alpha-2 code ('DE'), shown as its English name; older rows may hold a name already. */
export function countryLabel(country: string | null | undefined): string {
  const text = known(country);
  if (text === null) return UNKNOWN;
  return /^[A-Za-z]{2}$/.test(text) ? countryNameOf(text) : text;
}

export function genderLabel(gender: UserInfo['gender']): string {
  if (gender === 'male') return 'Male';
  if (gender === 'female') return 'Female';
  return UNKNOWN;
}

const LONG_DATE = new Intl.DateTimeFormat('en-US', { year: 'numeric', month: 'long', day: 'numeric', timeZone: 'UTC' });

/** '1990-12-10' -> 'December 10, 1990' (a calendar day: no time zone may move it). */
export function birthDateLabel(birthDate: string | null | undefined): string {
  const date = birthDate ? parseCalendarDate(birthDate) : null;
  if (!date) return UNKNOWN;
  const [year, month, day] = date;
  return LONG_DATE.format(new Date(Date.UTC(year, month - 1, day)));
}

/** Age on the user's own calendar day from the birth date, else the server's figure, else null. */
export function ageOf(user: Pick<UserInfo, 'userBirthDate' | 'userAge'>, today: Date): number | null {
  const date = user.userBirthDate ? parseCalendarDate(user.userBirthDate) : null;
  if (date) return ageOn(date, today);
  return user.userAge;
}

/** spec 2: 'Your age is N years old.' */
export function ageSentence(age: number | null): string {
  return age === null ? `Your age is ${UNKNOWN}.` : `Your age is ${age} years old.`;
}

/** How the avatar names the user: full name, else username, else e-mail address. */
export function profileName(user: UserInfo): string {
  return known([user.firstName, user.lastName].filter(Boolean).join(' ')) ?? known(user.username) ?? user.emailAddress;
}
