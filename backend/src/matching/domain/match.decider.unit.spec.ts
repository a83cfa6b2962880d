import { describe, expect, it } from 'vitest';
import {
  DeciderSpecification,
  type EvolveTable,
  expectFoldChangesOnly,
} from '../../platform/cqrs/decider-specification.js';
import { match, type MatchCommand, type MatchState } from './match.decider.js';
import type { MatchEvent, MatchPaired, MatchSide, SnapshotTaken } from './match.events.js';

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

describe('match: a report keeps the pair apart', () => {
  const separate = {
    type: 'Separate',
    matchId: 'm1',
    reportId: 'r1',
    reporterId: 'ada',
    reportedId: 'bob',
  } as const satisfies MatchCommand;
  const separated: MatchEvent = {
    type: 'PairSeparated',
    data: { matchId: 'm1', userIds: ['ada', 'bob'], reportId: 'r1' },
  };
  const ended: MatchEvent = {
    type: 'MatchEnded',
    data: { matchId: 'm1', endedBy: 'ada', reason: 'leave', durationMs: 30_000 },
  };

  it('separates the two of a call, during it or after it ends, once', () => {
    given([paired]).when(separate).then([separated]);
    given([paired, ended]).when(separate).then([separated]);
    given([paired, separated]).when(separate).thenNothingHappened();
    // The other side's report of the same call: the two are apart already.
    given([paired, separated])
      .when({ ...separate, reportId: 'r2', reporterId: 'bob', reportedId: 'ada' })
      .thenNothingHappened();
  });

  it('separates nobody on a report that does not name the two of the call', () => {
    given([]).when(separate).thenThrows('match-not-found');
    given([paired])
      .when({ ...separate, reportedId: 'eve' })
      .thenThrows('match-not-found');
    given([paired])
      .when({ ...separate, reporterId: 'eve' })
      .thenThrows('match-not-found');
    given([paired])
      .when({ ...separate, reportedId: 'ada' })
      .thenThrows('match-not-found');
  });
});

describe('match: snapshots (report evidence)', () => {
  const snapshot = (snapshotId: string, why: { reason?: string | null; reportId?: string | null } = {}) =>
    ({
      matchId: 'm1',
      snapshotId,
      userId: 'bob',
      requestedBy: 'admin',
      reason: why.reason === undefined ? 'Showed a weapon' : why.reason,
      reportId: why.reportId ?? null,
      sha256: 'a'.repeat(64),
      width: 640,
      height: 480,
      bytes: 20_000,
      file: `${snapshotId}.jpg`,
      takenAt: '2026-11-24T12:00:10.000Z',
    }) satisfies SnapshotTaken['data'];
  const taken: MatchEvent = { type: 'SnapshotTaken', data: snapshot('s1') };
  const held: MatchEvent = { type: 'SnapshotHeld', data: { matchId: 'm1', snapshotId: 's1', caseId: 'c1' } };

  it('takes one for a stated reason or a report, never for neither', () => {
    given([paired])
      .when({ type: 'RecordSnapshot', ...snapshot('s1') })
      .then([taken]);
    const forReport = snapshot('s2', { reason: null, reportId: 'r1' });
    given([paired])
      .when({ type: 'RecordSnapshot', ...forReport })
      .then([{ type: 'SnapshotTaken', data: forReport }]);
    given([paired])
      .when({ type: 'RecordSnapshot', ...snapshot('s3', { reason: '  ' }) })
      .thenThrows('snapshot-reason-required');
  });

  it('shows one only while its bytes hash to what was recorded, and records who looked', () => {
    const view = { type: 'ViewSnapshot', matchId: 'm1', snapshotId: 's1', viewedBy: 'admin' } as const;
    given([paired, taken])
      .when({ ...view, sha256: 'a'.repeat(64) })
      .then([{ type: 'SnapshotViewed', data: { matchId: 'm1', snapshotId: 's1', viewedBy: 'admin' } }]);
    expect(
      given([paired, taken])
        .when({ ...view, sha256: 'b'.repeat(64) })
        .thenThrows('evidence-mismatch').message,
    ).toMatch(/does not match its checksum/);
    given([paired])
      .when({ ...view, sha256: 'a'.repeat(64) })
      .thenThrows('snapshot-not-found');
  });

  it('keeps a held one from deletion until every case holding it lets go; deletes once', () => {
    const hold = { type: 'HoldSnapshot', matchId: 'm1', snapshotId: 's1', caseId: 'c1' } as const;
    const remove = { type: 'DeleteSnapshot', matchId: 'm1', snapshotId: 's1', reason: 'retention' } as const;
    const released: MatchEvent = { type: 'SnapshotReleased', data: { matchId: 'm1', snapshotId: 's1', caseId: 'c1' } };
    const deleted: MatchEvent = {
      type: 'SnapshotDeleted',
      data: { matchId: 'm1', snapshotId: 's1', userId: 'bob', reason: 'retention' },
    };
    given([paired, taken]).when(hold).then([held]);
    given([paired, taken, held]).when(hold).thenNothingHappened();
    given([paired, taken, held]).when(remove).thenThrows('evidence-held');
    given([paired, taken, held])
      .when({ type: 'ReleaseSnapshot', matchId: 'm1', snapshotId: 's1', caseId: 'c1' })
      .then([released]);
    given([paired, taken, held, released]).when(remove).then([deleted]);
    given([paired, taken, deleted]).when(remove).thenNothingHappened();
    given([paired, taken, deleted]).when(hold).thenThrows('snapshot-not-found');
    given([paired, taken, deleted])
      .when({ type: 'ViewSnapshot', matchId: 'm1', snapshotId: 's1', viewedBy: 'admin', sha256: 'a'.repeat(64) })
      .thenThrows('snapshot-not-found');
  });
});

/** A call in progress, relayed on no SFU yet, with one feedback in: every field set, so a stray write shows. */
const activeState: MatchState = {
  status: 'active',
  userIds: ['ada', 'bob'],
  pairedAt: Date.parse('2026-11-24T12:00:00.000Z'),
  feedbackBy: ['ada'],
  sfuNode: null,
  snapshots: { s0: { userId: 'bob', sha256: 'a'.repeat(64), heldBy: ['c0'], deleted: false } },
  separatedBy: 'r0',
};
const s0 = activeState.snapshots.s0!;

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
  SnapshotTaken: {
    event: {
      type: 'SnapshotTaken',
      data: {
        matchId: 'm1',
        snapshotId: 's1',
        userId: 'bob',
        requestedBy: 'ada',
        reason: 'Showed a weapon',
        reportId: null,
        sha256: '0'.repeat(64),
        width: 640,
        height: 480,
        bytes: 20_000,
        file: 's1.jpg',
        takenAt: '2026-11-24T12:00:10.000Z',
      },
    },
    changes: {
      snapshots: { s0, s1: { userId: 'bob', sha256: '0'.repeat(64), heldBy: [], deleted: false } },
    },
  },
  // A look is on record; it changes nothing a decision reads.
  SnapshotViewed: {
    event: { type: 'SnapshotViewed', data: { matchId: 'm1', snapshotId: 's0', viewedBy: 'admin' } },
    changes: {},
  },
  SnapshotHeld: {
    event: { type: 'SnapshotHeld', data: { matchId: 'm1', snapshotId: 's0', caseId: 'c1' } },
    changes: { snapshots: { s0: { ...s0, heldBy: ['c0', 'c1'] } } },
  },
  SnapshotReleased: {
    event: { type: 'SnapshotReleased', data: { matchId: 'm1', snapshotId: 's0', caseId: 'c0' } },
    changes: { snapshots: { s0: { ...s0, heldBy: [] } } },
  },
  SnapshotDeleted: {
    event: { type: 'SnapshotDeleted', data: { matchId: 'm1', snapshotId: 's0', userId: 'bob', reason: 'retention' } },
    changes: { snapshots: { s0: { ...s0, deleted: true } } },
  },
  PairSeparated: {
    event: { type: 'PairSeparated', data: { matchId: 'm1', userIds: ['bob', 'ada'], reportId: 'r1' } },
    changes: { separatedBy: 'r1' },
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
