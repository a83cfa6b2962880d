import { PENALTY_ESCALATION_WINDOW_DAYS, type ViolationLevel } from '@serendip/proto';

/** A violation on the account's record: when it was decided, at what level, and whether it still stands. */
export interface RecordedViolation {
  decidedAt: Date;
  level: ViolationLevel;
  /** Reversed on appeal, or found to rest on a false report: it no longer counts. */
  reversed: boolean;
}

export type PenaltySuggestion =
  | { kind: 'warning'; tier: 1; explanation: string }
  | { kind: 'restriction'; tier: 1 | 2 | 3; days: number; explanation: string }
  | { kind: 'permanent'; tier: 4; explanation: string };

const DAY_MS = 86_400_000;

/**
 * The published penalty system (spec 9, /support/penalty-system) as a pure rule: what a new violation at `level`
 * calls for, given the account's record. Violations decided within the escalation window and not reversed count.
 * Tiers: first a warning (minor) or 24 hours (moderate); second 3 (minor) or 7 days (moderate); third about 30 days;
 * then permanent. A severe violation skips the tiers: suspended at once for 30 days, permanently if the account
 * already has a violation on record. An admin sees this suggestion and may decide otherwise, with a reason.
 */
export function suggestPenalty(
  record: readonly RecordedViolation[],
  level: ViolationLevel,
  now: Date,
): PenaltySuggestion {
  const since = now.getTime() - PENALTY_ESCALATION_WINDOW_DAYS * DAY_MS;
  const counted = record.filter((v) => !v.reversed && v.decidedAt.getTime() > since && v.decidedAt <= now).length;
  const window = `in the last ${PENALTY_ESCALATION_WINDOW_DAYS} days`;

  if (level === 'severe') {
    return counted === 0
      ? { kind: 'restriction', tier: 3, days: 30, explanation: 'A severe violation: suspended at once for 30 days.' }
      : {
          kind: 'permanent',
          tier: 4,
          explanation: `A severe violation after ${counted} earlier ${plural(counted)} ${window}: a permanent ban.`,
        };
  }
  const minor = level === 'minor';
  switch (counted) {
    case 0:
      return minor
        ? { kind: 'warning', tier: 1, explanation: 'A first minor violation: a warning.' }
        : { kind: 'restriction', tier: 1, days: 1, explanation: 'A first moderate violation: 24 hours.' };
    case 1:
      return {
        kind: 'restriction',
        tier: 2,
        days: minor ? 3 : 7,
        explanation: `A second violation ${window}: ${minor ? '3' : '7'} days.`,
      };
    case 2:
      return { kind: 'restriction', tier: 3, days: 30, explanation: `A third violation ${window}: 30 days.` };
    default:
      return {
        kind: 'permanent',
        tier: 4,
        explanation: `Violation number ${counted + 1} ${window}: a permanent ban.`,
      };
  }
}

function plural(count: number): string {
  return count === 1 ? 'violation' : 'violations';
}
