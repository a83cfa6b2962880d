import { describe, expect, it } from 'vitest';
import { ageOn, calendarDate, parseCalendarDate } from './age';

// Local dates: the rule is about the user's own calendar day.
const on = (year: number, month: number, day: number) => new Date(year, month - 1, day, 12);

describe('age', () => {
  it('turns 18 on the birthday, not the day before', () => {
    expect(ageOn([2008, 5, 4], on(2026, 5, 3))).toBe(17);
    expect(ageOn([2008, 5, 4], on(2026, 5, 4))).toBe(18);
  });

  it('counts a 29 February birthday from 1 March in other years', () => {
    expect(ageOn([2008, 2, 29], on(2026, 2, 28))).toBe(17);
    expect(ageOn([2008, 2, 29], on(2026, 3, 1))).toBe(18);
  });

  it('reads only dates that exist', () => {
    expect(parseCalendarDate('2000-02-29')).toEqual([2000, 2, 29]);
    expect(parseCalendarDate('2001-02-29')).toBeNull();
    expect(parseCalendarDate('2001-13-01')).toBeNull();
    expect(parseCalendarDate('1.1.2001')).toBeNull();
  });

  it('gives the latest birth date an adult can have, as YYYY-MM-DD', () => {
    expect(calendarDate(on(2026, 11, 22), 18)).toBe('2008-11-22');
    expect(calendarDate(on(2028, 2, 29), 18)).toBe('2010-02-28');
  });
});
