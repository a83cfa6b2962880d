/** spec 1, 9: every user is 18 or older. The server checks it again; this only saves a round trip. */
export const MINIMUM_AGE = 18;

export const UNDER_AGE_MESSAGE = `You must be ${MINIMUM_AGE} or older to use Serendip.`;

const DATE_PATTERN = /^(\d{4})-(\d{2})-(\d{2})$/;

/** A calendar date (YYYY-MM-DD) that exists, as [year, month, day]; null for anything else. */
export function parseCalendarDate(text: string): [number, number, number] | null {
  const match = DATE_PATTERN.exec(text);
  if (!match) return null;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const date = new Date(Date.UTC(year, month - 1, day));
  if (date.getUTCFullYear() !== year || date.getUTCMonth() !== month - 1 || date.getUTCDate() !== day) return null;
  return [year, month, day];
}

/** Whole years from a birth date to `today` (the user's own calendar day), as a person counts their age. */
export function ageOn(birthDate: [number, number, number], today: Date): number {
  const [year, month, day] = birthDate;
  const thisMonth = today.getMonth() + 1;
  const hadBirthday = thisMonth > month || (thisMonth === month && today.getDate() >= day);
  return today.getFullYear() - year - (hadBirthday ? 0 : 1);
}

/** The user's calendar day as YYYY-MM-DD, `yearsBack` years ago: the latest birth date an adult can have. */
export function calendarDate(today: Date, yearsBack = 0): string {
  const year = String(today.getFullYear() - yearsBack).padStart(4, '0');
  const month = String(today.getMonth() + 1).padStart(2, '0');
  const day = String(today.getDate()).padStart(2, '0');
  const date = `${year}-${month}-${day}`;
  // 29 February has no match in most years; the day before is the latest date that still counts.
  return parseCalendarDate(date) ? date : `${year}-${month}-28`;
}
