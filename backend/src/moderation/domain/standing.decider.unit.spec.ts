import { describe, it } from 'vitest';
import { DeciderSpecification } from '../../platform/cqrs/decider-specification.js';
import { standing, type StandingCommand } from './standing.decider.js';
import type { StandingEvent, UserBanned } from './standing.events.js';

const now = new Date('2026-11-25T12:00:00Z');
const spec = DeciderSpecification.for(standing);
const given = (events: StandingEvent[], at = now) => spec.given(events, { now: at, actor: 'admin-1' });

const banned = (
  caseId: string,
  at: string,
  expiresAt: string | null,
  level: UserBanned['data']['level'] = 'moderate',
) =>
  ({
    type: 'UserBanned',
    data: {
      caseId,
      userId: 'u1',
      reason: 'Harassment in chat',
      level,
      bannedBy: 'admin-1',
      bannedAt: at,
      expiresAt,
      choice: { suggestedTier: 1, suggestion: 'A first moderate violation: 24 hours.' },
      overrideReason: null,
      reportId: null,
    },
  }) satisfies UserBanned;

const day = (iso: string) => new Date(iso).toISOString();

/** An admin's ban of u1 for harassment, a moderate violation, for one day (the policy's first step). */
const banForADay = (caseId: string, overrides: Partial<Extract<StandingCommand, { type: 'BanUser' }>> = {}) => ({
  type: 'BanUser' as const,
  caseId,
  userId: 'u1',
  reason: 'Harassment in chat',
  level: 'moderate' as const,
  penalty: { kind: 'restriction' as const, days: 1 },
  ...overrides,
});

describe('a user\'s standing: bans and appeals (spec 3 "Ban record", 4 "Ban", "Appeal")', () => {
  it("bans with the policy's suggestion, recording who, when, until when, and what was suggested", () => {
    given([])
      .when(banForADay('c1', { reason: ' Harassment in chat ' }))
      .then([banned('c1', now.toISOString(), day('2026-11-26T12:00:00Z'))]);
  });

  it('needs a reason to choose other than the policy, and records it', () => {
    const command = banForADay('c1', { penalty: { kind: 'permanent' } });
    given([]).when(command).thenThrows('override-reason-missing');
    given([])
      .when({ ...command, overrideReason: 'Threats of violence' })
      .then([
        {
          ...banned('c1', now.toISOString(), null),
          data: {
            ...banned('c1', now.toISOString(), null).data,
            overrideReason: 'Threats of violence',
          },
        },
      ]);
  });

  it('escalates from the record: a second violation within 6 months suggests 7 days', () => {
    const first = banned('c1', '2026-10-01T12:00:00.000Z', '2026-10-02T12:00:00.000Z');
    const expired: StandingEvent = { type: 'BanExpired', data: { caseId: 'c1', userId: 'u1' } };
    given([first, expired]).when(banForADay('c2')).thenThrows('override-reason-missing');
  });

  it('warns for a first minor violation, as the policy suggests: on the record, restricting nothing, and it counts', () => {
    const warn = banForADay('c1', { level: 'minor', penalty: { kind: 'warning' }, reason: 'Spam links' });
    const warned: StandingEvent = {
      type: 'UserWarned',
      data: {
        caseId: 'c1',
        userId: 'u1',
        reason: 'Spam links',
        level: 'minor',
        warnedBy: 'admin-1',
        warnedAt: now.toISOString(),
        choice: { suggestedTier: 1, suggestion: 'A first minor violation: a warning.' },
        overrideReason: null,
        reportId: null,
      },
    };
    given([]).when(warn).then([warned]);
    // A warning is lighter than a moderate violation's first step: it needs a reason.
    given([])
      .when({ ...warn, level: 'moderate' })
      .thenThrows('override-reason-missing');
    // The next minor violation is a second one: 3 days, not another warning.
    given([warned])
      .when({ ...warn, caseId: 'c2' })
      .thenThrows('override-reason-missing');
    given([warned])
      .when(banForADay('c2', { level: 'minor', penalty: { kind: 'restriction', days: 3 } }))
      .then([
        {
          ...banned('c2', now.toISOString(), day('2026-11-28T12:00:00Z'), 'minor'),
          data: {
            ...banned('c2', now.toISOString(), day('2026-11-28T12:00:00Z'), 'minor').data,
            choice: { suggestedTier: 2, suggestion: 'A second violation in the last 182 days: 3 days.' },
          },
        },
      ]);
  });

  it('refuses a second ban while one is on, a blank reason, and a restriction of no days', () => {
    const on = banned('c1', now.toISOString(), null);
    const base = banForADay('c2', { reason: 'x', overrideReason: 'case by case' });
    given([on]).when(base).thenThrows('already-banned');
    given([])
      .when({ ...base, reason: '   ' })
      .thenThrows('reason-missing');
    given([])
      .when({ ...base, penalty: { kind: 'restriction', days: 0 } })
      .thenThrows('days-invalid');
  });

  it('expires a timed ban only once it is past, and only once (a scheduled check may run twice)', () => {
    const timed = banned('c1', '2026-11-24T12:00:00.000Z', '2026-11-25T12:00:00.000Z');
    given([timed], new Date('2026-11-25T11:59:59Z')).when({ type: 'ExpireBan', caseId: 'c1' }).thenNothingHappened();
    given([timed])
      .when({ type: 'ExpireBan', caseId: 'c1' })
      .then([{ type: 'BanExpired', data: { caseId: 'c1', userId: 'u1' } }]);
    given([timed, { type: 'BanExpired', data: { caseId: 'c1', userId: 'u1' } }])
      .when({ type: 'ExpireBan', caseId: 'c1' })
      .thenNothingHappened();
    given([banned('c2', now.toISOString(), null)])
      .when({ type: 'ExpireBan', caseId: 'c2' })
      .thenNothingHappened();
  });

  it('takes one appeal per ban, never a blank one (spec 5)', () => {
    const on = banned('c1', now.toISOString(), null);
    given([on])
      .when({ type: 'AppealBan', caseId: 'c1', explanation: '  It was my brother  ' })
      .then([{ type: 'BanAppealed', data: { caseId: 'c1', userId: 'u1', explanation: 'It was my brother' } }]);
    given([on]).when({ type: 'AppealBan', caseId: 'c1', explanation: '   ' }).thenThrows('blank');
    const appealed: StandingEvent = { type: 'BanAppealed', data: { caseId: 'c1', userId: 'u1', explanation: 'x' } };
    given([on, appealed])
      .when({ type: 'AppealBan', caseId: 'c1', explanation: 'again' })
      .thenThrows('already-appealed');
    given([]).when({ type: 'AppealBan', caseId: 'c1', explanation: 'x' }).thenThrows('no-such-ban');
  });

  it('an approved appeal lifts the ban and takes its violation off the record', () => {
    const on = banned('c1', '2026-11-20T12:00:00.000Z', null);
    const appealed: StandingEvent = { type: 'BanAppealed', data: { caseId: 'c1', userId: 'u1', explanation: 'x' } };
    const approved: StandingEvent = {
      type: 'AppealResolved',
      data: { caseId: 'c1', userId: 'u1', outcome: 'approved', by: 'admin-1', note: 'Wrong person' },
    };
    given([on, appealed])
      .when({ type: 'ResolveAppeal', caseId: 'c1', outcome: 'approved', note: ' Wrong person ' })
      .then([approved]);
    // The reversed violation no longer counts: a new moderate one is a first one again (24 hours, no override).
    given([on, appealed, approved])
      .when(banForADay('c2'))
      .then([{ ...banned('c2', now.toISOString(), day('2026-11-26T12:00:00Z')) }]);
    given([on])
      .when({ type: 'ResolveAppeal', caseId: 'c1', outcome: 'rejected', note: 'x' })
      .thenThrows('no-pending-appeal');
  });

  it('lifts a ban only by its case, with a reason', () => {
    const on = banned('c1', now.toISOString(), null);
    given([on]).when({ type: 'UnbanUser', caseId: 'c9', reason: 'x' }).thenThrows('no-such-ban');
    given([on]).when({ type: 'UnbanUser', caseId: 'c1', reason: ' ' }).thenThrows('reason-missing');
    given([on])
      .when({ type: 'UnbanUser', caseId: 'c1', reason: 'Mistaken identity' })
      .then([
        { type: 'UserUnbanned', data: { caseId: 'c1', userId: 'u1', by: 'admin-1', reason: 'Mistaken identity' } },
      ]);
  });
});
