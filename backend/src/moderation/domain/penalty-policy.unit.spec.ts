import { describe, expect, it } from 'vitest';
import { type RecordedViolation, suggestPenalty } from './penalty-policy.js';

const NOW = new Date('2026-11-25T12:00:00Z');
const daysAgo = (days: number) => new Date(NOW.getTime() - days * 86_400_000);
const violation = (days: number, overrides: Partial<RecordedViolation> = {}): RecordedViolation => ({
  decidedAt: daysAgo(days),
  level: 'moderate',
  reversed: false,
  ...overrides,
});

describe('the penalty system (spec 9, /support/penalty-system)', () => {
  it('answers a first violation with a warning (minor) or 24 hours (moderate)', () => {
    expect(suggestPenalty([], 'minor', NOW)).toMatchObject({ kind: 'warning', tier: 1 });
    expect(suggestPenalty([], 'moderate', NOW)).toMatchObject({ kind: 'restriction', tier: 1, days: 1 });
  });

  it('escalates: a second violation 3 or 7 days, a third about 30 days, then permanent', () => {
    expect(suggestPenalty([violation(10)], 'minor', NOW)).toMatchObject({ tier: 2, days: 3 });
    expect(suggestPenalty([violation(10)], 'moderate', NOW)).toMatchObject({ tier: 2, days: 7 });
    expect(suggestPenalty([violation(10), violation(40)], 'minor', NOW)).toMatchObject({ tier: 3, days: 30 });
    expect(suggestPenalty([violation(10), violation(40), violation(90)], 'minor', NOW)).toMatchObject({
      kind: 'permanent',
      tier: 4,
    });
  });

  it('counts only violations within the 6-month window that still stand', () => {
    const old = violation(200);
    const reversed = violation(5, { reversed: true });
    expect(suggestPenalty([old, reversed], 'minor', NOW)).toMatchObject({ kind: 'warning', tier: 1 });
    // A violation decided after the moment judged is not on the record yet.
    expect(suggestPenalty([violation(-1)], 'minor', NOW)).toMatchObject({ kind: 'warning' });
  });

  it('lets a severe violation skip the tiers: 30 days at once, permanent after any earlier one', () => {
    expect(suggestPenalty([], 'severe', NOW)).toMatchObject({ kind: 'restriction', tier: 3, days: 30 });
    expect(suggestPenalty([violation(100, { level: 'minor' })], 'severe', NOW)).toMatchObject({
      kind: 'permanent',
      explanation: 'A severe violation after 1 earlier violation in the last 182 days: a permanent ban.',
    });
  });
});
