import { describe, expect, it } from 'vitest';
import { whenNotified } from './notification-time';

describe('when a notification came', () => {
  const now = Date.parse('2026-11-26T12:00:00Z');
  it.each([
    ['2026-11-26T11:59:40Z', 'just now'],
    ['2026-11-26T11:55:00Z', '5 min. ago'],
    ['2026-11-26T09:00:00Z', '3 hr. ago'],
    ['2026-11-25T11:00:00Z', 'yesterday'],
    ['2026-11-22T12:00:00Z', '4 days ago'],
    ['2026-10-02T12:00:00Z', 'Oct 2, 2026'],
  ])('%s reads %s', (iso, text) => {
    expect(whenNotified(iso, now)).toBe(text);
  });
});
