import { describe, expect, it } from 'vitest';
import { DomainError } from '../../platform/cqrs/decider.js';
import { match, type MatchCommand } from './match.decider.js';
import type { MatchEvent, MatchSide } from './match.events.js';

const now = new Date('2026-11-24T12:00:30Z');
const given = (events: MatchEvent[]) => ({
  when: (command: MatchCommand) => () =>
    match.decide(command, events.reduce(match.evolve, match.initialState), { now, actor: 'matchmaker' }),
});
const side = (userId: string, waitedMs = 0): MatchSide => ({
  userId,
  filters: { gender: null, country: null, ageRange: [18, 35] },
  waitedMs,
});
const paired: MatchEvent = {
  type: 'MatchPaired',
  data: { matchId: 'm1', sides: [side('ada', 4000), side('bob')], pairedAt: '2026-11-24T12:00:00.000Z' },
};

describe('match (issue 7)', () => {
  it('pairs two users once; a repeat of the pairing decides nothing', () => {
    expect(given([]).when({ type: 'Pair', matchId: 'm1', sides: [side('ada', 4000), side('bob')] })()).toEqual([
      {
        type: 'MatchPaired',
        data: { matchId: 'm1', sides: [side('ada', 4000), side('bob')], pairedAt: now.toISOString() },
      },
    ]);
    expect(given([paired]).when({ type: 'Pair', matchId: 'm1', sides: [side('ada'), side('bob')] })()).toEqual([]);
  });

  it('never pairs a user with themselves', () => {
    expect(given([]).when({ type: 'Pair', matchId: 'm1', sides: [side('ada'), side('ada')] })).toThrow(/themselves/);
  });

  it('ends a call once, saying who ended it, why, and how long it lasted', () => {
    const end: MatchCommand = { type: 'End', matchId: 'm1', endedBy: 'bob', reason: 'skip' };
    expect(given([paired]).when(end)()).toEqual([
      { type: 'MatchEnded', data: { matchId: 'm1', endedBy: 'bob', reason: 'skip', durationMs: 30_000 } },
    ]);
    const ended = given([paired]).when(end)();
    expect(given([paired, ...ended]).when(end)()).toEqual([]);
    expect(given([]).when(end)).toThrow(DomainError);
  });

  it('takes one feedback per user per call, from the two users of the call only', () => {
    const feedback: MatchCommand = {
      type: 'GiveFeedback',
      matchId: 'm1',
      userId: 'ada',
      rating: 4,
      additionalInformation: 'Lovely chat',
    };
    const given1 = given([paired]).when(feedback)();
    expect(given1).toEqual([
      {
        type: 'FeedbackGiven',
        data: { matchId: 'm1', userId: 'ada', rating: 4, additionalInformation: 'Lovely chat' },
      },
    ]);
    expect(given([paired, ...given1]).when(feedback)).toThrow(/already gave feedback/);
    expect(given([paired]).when({ ...feedback, userId: 'eve' })).toThrow(/no such call/);
    expect(given([]).when(feedback)).toThrow(/no such call/);
    expect(given([paired]).when({ ...feedback, rating: 6 })).toThrow(/1 to 5/);
  });
});
