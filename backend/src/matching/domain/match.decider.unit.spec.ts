import { describe, expect, it } from 'vitest';
import {
  DeciderSpecification,
  type EvolveTable,
  expectFoldChangesOnly,
} from '../../platform/cqrs/decider-specification.js';
import { match, type MatchCommand, type MatchState } from './match.decider.js';
import type { MatchEvent, MatchPaired, MatchSide } from './match.events.js';

const now = new Date('2026-11-24T12:00:30Z');
const spec = DeciderSpecification.for(match);
const given = (events: MatchEvent[]) => spec.given(events, { now, actor: 'matchmaker' });
const side = (userId: string, waitedMs = 0): MatchSide => ({
  userId,
  filters: { gender: null, country: null, ageRange: [18, 35] },
  waitedMs,
});
const paired: MatchPaired = {
  type: 'MatchPaired',
  data: { matchId: 'm1', sides: [side('ada', 4000), side('bob')], pairedAt: '2026-11-24T12:00:00.000Z' },
};

describe('match', () => {
  it('pairs two users once; a repeat of the pairing decides nothing', () => {
    given([])
      .when({ type: 'Pair', matchId: 'm1', sides: [side('ada', 4000), side('bob')] })
      .then([
        {
          type: 'MatchPaired',
          data: { matchId: 'm1', sides: [side('ada', 4000), side('bob')], pairedAt: now.toISOString() },
        },
      ]);
    given([paired])
      .when({ type: 'Pair', matchId: 'm1', sides: [side('ada'), side('bob')] })
      .thenNothingHappened();
  });

  it('never pairs a user with themselves', () => {
    const refusal = given([])
      .when({ type: 'Pair', matchId: 'm1', sides: [side('ada'), side('ada')] })
      .thenThrows('self-match');
    expect(refusal.message).toMatch(/themselves/);
  });

  it('ends a call once, saying who ended it, why, and how long it lasted', () => {
    const end: MatchCommand = { type: 'End', matchId: 'm1', endedBy: 'bob', reason: 'skip' };
    const ended: MatchEvent = {
      type: 'MatchEnded',
      data: { matchId: 'm1', endedBy: 'bob', reason: 'skip', durationMs: 30_000 },
    };
    given([paired]).when(end).then([ended]);
    given([paired, ended]).when(end).thenNothingHappened();
    given([]).when(end).thenThrows('match-not-found');
  });

  it('takes one feedback per user per call, from the two users of the call only', () => {
    const feedback: MatchCommand = {
      type: 'GiveFeedback',
      matchId: 'm1',
      userId: 'ada',
      rating: 4,
      additionalInformation: 'Lovely chat',
    };
    const given1: MatchEvent = {
      type: 'FeedbackGiven',
      data: { matchId: 'm1', userId: 'ada', rating: 4, additionalInformation: 'Lovely chat' },
    };
    given([paired]).when(feedback).then([given1]);
    expect(given([paired, given1]).when(feedback).thenThrows('feedback-already-given').message).toMatch(
      /already gave feedback/,
    );
    expect(
      given([paired])
        .when({ ...feedback, userId: 'eve' })
        .thenThrows('match-not-found').message,
    ).toMatch(/no such call/);
    expect(given([]).when(feedback).thenThrows('match-not-found').message).toMatch(/no such call/);
    expect(
      given([paired])
        .when({ ...feedback, rating: 6 })
        .thenThrows('invalid-rating').message,
    ).toMatch(/1 to 5/);
  });
});

/** A call in progress, relayed on no SFU yet, with one feedback in: every field set, so a stray write shows. */
const activeState: MatchState = {
  status: 'active',
  userIds: ['ada', 'bob'],
  pairedAt: Date.parse('2026-11-24T12:00:00.000Z'),
  feedbackBy: ['ada'],
  sfuNode: null,
};

const evolveTable: EvolveTable<MatchState, MatchEvent> = {
  MatchPaired: {
    on: match.initialState,
    event: paired,
    changes: { status: 'active', userIds: ['ada', 'bob'], pairedAt: Date.parse('2026-11-24T12:00:00.000Z') },
  },
  MatchEnded: {
    event: { type: 'MatchEnded', data: { matchId: 'm1', endedBy: 'bob', reason: 'skip', durationMs: 30_000 } },
    changes: { status: 'ended' },
  },
  MatchRelayed: {
    event: { type: 'MatchRelayed', data: { matchId: 'm1', reason: 'hide-ip', sfuNode: 'sfu-1' } },
    changes: { sfuNode: 'sfu-1' },
  },
  // The frame is report evidence kept in the event and its file; no decision reads it.
  SnapshotTaken: {
    event: {
      type: 'SnapshotTaken',
      data: {
        matchId: 'm1',
        snapshotId: 's1',
        userId: 'bob',
        requestedBy: 'ada',
        sha256: '0'.repeat(64),
        width: 640,
        height: 480,
        bytes: 20_000,
        file: 's1.jpg',
        takenAt: '2026-11-24T12:00:10.000Z',
      },
    },
    changes: {},
  },
  FeedbackGiven: {
    event: { type: 'FeedbackGiven', data: { matchId: 'm1', userId: 'bob', rating: 5, additionalInformation: '' } },
    changes: { feedbackBy: ['ada', 'bob'] },
  },
};

describe('match evolve', () => {
  it.each(Object.entries(evolveTable))(
    '%s, folded alone onto a representative state, changes only its own fields',
    (_type, { on, event, changes }) => expectFoldChangesOnly(match, on ?? activeState, event, changes),
  );
});
