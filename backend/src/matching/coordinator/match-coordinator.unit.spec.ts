import { INTEREST_WAIT_MS, type MatchFilters, type MediaMode } from '@serendip/proto';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { MatchCommand } from '../domain/match.decider.js';
import { Matchmaker } from '../domain/matchmaker.js';
import type { SeekerProfile, UserDelivery } from './coordinator.messages.js';
import { MatchCoordinator } from './match-coordinator.js';

const ANY: MatchFilters = { gender: null, country: null, ageRange: [18, 110] };

function profile(userId: string, gender: 'male' | 'female' = 'female', age = 30, hideIp = false): SeekerProfile {
  return {
    gender,
    hideIp,
    age,
    country: 'DE',
    public: {
      firstName: userId,
      userAge: age,
      gender,
      country: 'DE',
      avatar: null,
      isAdmin: false,
      deviceType: 'desktop',
    },
  };
}

function setUp(
  options: {
    failToRecord?: MatchCommand['type'];
    mode?: MediaMode;
    sfuDown?: boolean;
    relayAvailable?: boolean;
    /** An SFU of the test's own: answers when and how the test says. */
    sfu?: (matchId: string, on?: string) => Promise<string>;
  } = {},
) {
  const recorded: MatchCommand[] = [];
  /** The SFU rooms open now, by call, and on which node. */
  const rooms = new Map<string, string>();
  /** The peers each room was made for. */
  const roomPeers = new Map<string, readonly string[]>();
  /** Every room closed, and where. */
  const closed: { matchId: string; sfuNode: string }[] = [];
  let nodes = 0;
  const errors: string[] = [];
  const delivered: { to: string; delivery: UserDelivery }[] = [];
  let clock = Date.parse('2026-11-24T12:00:00Z');
  let ids = 0;
  const coordinator = new MatchCoordinator({
    matchmaker: new Matchmaker(),
    deliver: async (to, delivery) => void delivered.push({ to, delivery }),
    record: async (command) => {
      if (command.type === options.failToRecord) throw new Error('the event store is unreachable');
      recorded.push(command);
    },
    iceServers: (userId) => [{ urls: ['turn:127.0.0.1:3478'], username: `x:${userId}`, credential: 'c' }],
    now: () => clock,
    newId: () => `match-${++ids}`,
    graceMs: 10_000,
    media: {
      mode: options.mode ?? 'p2p',
      relayAvailable: () => options.relayAvailable ?? !options.sfuDown,
      openRoom: async (matchId, userIds, on) => {
        if (options.sfuDown) throw new Error('Media relay is unavailable right now.');
        roomPeers.set(matchId, userIds);
        if (options.sfu) return options.sfu(matchId, on);
        rooms.set(matchId, `node-${++nodes}`);
        return rooms.get(matchId)!;
      },
      closeRoom: async (matchId, sfuNode) => {
        closed.push({ matchId, sfuNode });
        if (rooms.get(matchId) === sfuNode) rooms.delete(matchId);
      },
    },
    onError: (error, what) => {
      if (!options.failToRecord && !options.sfuDown && !options.sfu) throw error;
      errors.push(what);
    },
  });
  const start = (userId: string, socketId: string, filters = ANY, p = profile(userId)) =>
    coordinator.handle({ kind: 'start', userId, socketId, profile: p, filters });
  const to = (userId: string) => delivered.filter((d) => d.to === userId).map((d) => d.delivery);
  return {
    coordinator,
    recorded,
    delivered,
    errors,
    rooms,
    roomPeers,
    closed,
    start,
    to,
    tick: (ms: number) => (clock += ms),
  };
}

describe('the matchmaker leader', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('pairs two users who accept each other, records it, and tells each their partner and part', async () => {
    const { start, recorded, to, tick } = setUp();
    await start('ada', 'sock-b');
    tick(4_000);
    await start('bob', 'sock-a', ANY, profile('bob', 'male', 41));

    expect(recorded).toEqual([
      {
        type: 'Pair',
        matchId: 'match-1',
        sides: [
          { userId: 'ada', filters: ANY, waitedMs: 4_000 },
          { userId: 'bob', filters: ANY, waitedMs: 0 },
        ],
      },
    ]);
    const [adaMatch] = to('ada');
    const [bobMatch] = to('bob');
    // The gateway learns who the partner is; the client, only an id of this match (never 'bob').
    expect(adaMatch).toMatchObject({ kind: 'match', socketId: 'sock-b', event: 'matchFound', partnerUserId: 'bob' });
    const bobHere = adaMatch?.kind === 'match' ? adaMatch.match.partnerId : undefined;
    const adaHere = bobMatch?.kind === 'match' ? bobMatch.match.partnerId : undefined;
    expect(bobHere).toMatch(/^[0-9a-f-]{36}$/);
    expect(adaHere).toMatch(/^[0-9a-f-]{36}$/);
    expect(adaHere).not.toBe(bobHere);
    expect(adaMatch?.kind === 'match' && adaMatch.match).toMatchObject({
      matchId: 'match-1',
      partnerId: bobHere,
      partnerUser: { _id: bobHere, firstName: 'bob', userAge: 41, gender: 'male', socketId: bobHere },
      // spec 4: the lower socket id offers.
      role: 'answerer',
      iceServers: [{ urls: ['turn:127.0.0.1:3478'], username: 'x:ada', credential: 'c' }],
    });
    expect(bobMatch?.kind === 'match' && bobMatch.match.role).toBe('offerer');
  });

  it('never pairs a user with themselves: a second tab replaces the first in the queue', async () => {
    const { start, coordinator, to, recorded } = setUp();
    await start('ada', 'tab-1');
    await start('ada', 'tab-2');

    expect(recorded).toEqual([]);
    expect(coordinator.snapshot().waiting).toEqual(['ada']);
    expect(to('ada')).toEqual([{ kind: 'replaced', socketId: 'tab-1' }]);
  });

  it('honours filters both ways: nobody is paired with someone who would not accept them', async () => {
    const { start, recorded } = setUp();
    await start('ada', 's1', { gender: 'female', country: null, ageRange: [18, 110] }, profile('ada', 'female'));
    await start('bob', 's2', ANY, profile('bob', 'male'));
    expect(recorded).toEqual([]);
    await start('cleo', 's3', { gender: 'male', country: null, ageRange: [18, 110] }, profile('cleo', 'female'));
    // cleo wants a man and bob takes anyone: they meet; ada (wants a woman) is not taken by cleo (wants a man).
    expect(recorded).toMatchObject([{ type: 'Pair', sides: [{ userId: 'bob' }, { userId: 'cleo' }] }]);
  });

  it('pairs two who share an interest over one who waited longer, and tells each side the shared interests', async () => {
    const { start, recorded, to } = setUp();
    await start('ada', 's1', { ...ANY, interests: ['jazz', 'chess'] });
    await start('bob', 's2', { ...ANY, interests: ['cats'] }, profile('bob', 'male'));
    expect(recorded).toEqual([]);
    await start('cai', 's3', { ...ANY, interests: ['go', 'chess', 'jazz'] }, profile('cai', 'male'));

    expect(recorded).toMatchObject([{ type: 'Pair', sides: [{ userId: 'ada' }, { userId: 'cai' }] }]);
    const shared = (userId: string) => to(userId).flatMap((d) => (d.kind === 'match' ? [d.match.sharedInterests] : []));
    expect(shared('ada')).toEqual([['jazz', 'chess']]);
    expect(shared('cai')).toEqual([['chess', 'jazz']]);
  });

  it('pairs a user held for shared interests with anyone compatible once INTEREST_WAIT_MS is over', async () => {
    const { start, recorded, to, tick } = setUp();
    await start('ada', 's1', { ...ANY, interests: ['jazz'] });
    tick(1_000);
    await start('bob', 's2', ANY, profile('bob', 'male'));
    expect(recorded).toEqual([]);

    tick(INTEREST_WAIT_MS);
    await vi.advanceTimersByTimeAsync(INTEREST_WAIT_MS + 5);
    expect(recorded).toEqual([
      {
        type: 'Pair',
        matchId: 'match-1',
        sides: [
          { userId: 'bob', filters: ANY, waitedMs: INTEREST_WAIT_MS },
          { userId: 'ada', filters: { ...ANY, interests: ['jazz'] }, waitedMs: INTEREST_WAIT_MS + 1_000 },
        ],
      },
    ]);
    expect(to('ada')).toMatchObject([{ kind: 'match', match: { sharedInterests: [] } }]);
  });

  it('ends a call on a skip, tells only the partner, and keeps the two apart for 10 minutes', async () => {
    const { start, coordinator, recorded, to, tick } = setUp();
    await start('ada', 's1');
    await start('bob', 's2');
    await coordinator.handle({ kind: 'leave', userId: 'bob', socketId: 's2', reason: 'skip' });

    expect(recorded[1]).toEqual({ type: 'End', matchId: 'match-1', endedBy: 'bob', reason: 'skip' });
    expect(to('ada').at(-1)).toEqual({ kind: 'partner-left', matchId: 'match-1', reason: 'skip' });
    expect(to('bob').filter((d) => d.kind === 'partner-left')).toEqual([]);

    await start('bob', 's2');
    await start('ada', 's1');
    expect(recorded).toHaveLength(2);
    await start('cleo', 's3');
    expect(recorded[2]).toMatchObject({ type: 'Pair', sides: [{ userId: 'bob' }, { userId: 'cleo' }] });

    tick(10 * 60_000);
    await coordinator.handle({ kind: 'leave', userId: 'ada', socketId: 's1', reason: 'leave' });
    await start('ada', 's1');
    await coordinator.handle({ kind: 'leave', userId: 'cleo', socketId: 's3', reason: 'leave' });
    await start('bob', 's2');
    expect(recorded.at(-1)).toMatchObject({ type: 'Pair', sides: [{ userId: 'ada' }, { userId: 'bob' }] });
  });

  it('keeps the call through a blip within the grace period, on the new socket', async () => {
    const { start, coordinator, recorded, to } = setUp();
    await start('ada', 's1');
    await start('bob', 's2');
    await coordinator.handle({ kind: 'socket-lost', userId: 'ada', socketId: 's1' });
    // Bob's screen says 'Reconnecting...' meanwhile, and the call goes on once she is back.
    expect(to('bob').at(-1)).toEqual({ kind: 'partner-reconnecting', matchId: 'match-1' });
    await vi.advanceTimersByTimeAsync(9_000);
    await coordinator.handle({ kind: 'resume', userId: 'ada', socketId: 's1-again', matchId: 'match-1' });
    expect(to('bob').at(-1)).toEqual({ kind: 'partner-reconnected', matchId: 'match-1' });
    await vi.advanceTimersByTimeAsync(5_000);

    expect(recorded.map((c) => c.type)).toEqual(['Pair']);
    const [found] = to('ada');
    // The same call, the partner under the same per-match id.
    expect(to('ada').at(-1)).toMatchObject({
      kind: 'match',
      socketId: 's1-again',
      event: 'matchResumed',
      partnerUserId: 'bob',
      match: { matchId: 'match-1', partnerId: found?.kind === 'match' && found.match.partnerId, role: 'offerer' },
    });
    expect(to('bob').filter((d) => d.kind === 'partner-left')).toEqual([]);
  });

  it('after the grace period tells the partner the other is gone, and a late return hears the call is over', async () => {
    const { start, coordinator, recorded, to } = setUp();
    await start('ada', 's1');
    await start('bob', 's2');
    await coordinator.handle({ kind: 'socket-lost', userId: 'ada', socketId: 's1' });
    await vi.advanceTimersByTimeAsync(10_000);

    expect(recorded[1]).toEqual({ type: 'End', matchId: 'match-1', endedBy: null, reason: 'disconnect' });
    expect(to('bob').at(-1)).toEqual({ kind: 'partner-left', matchId: 'match-1', reason: 'disconnect' });
    await coordinator.handle({ kind: 'resume', userId: 'ada', socketId: 's1-late', matchId: 'match-1' });
    expect(to('ada').at(-1)).toEqual({ kind: 'call-over', socketId: 's1-late', matchId: 'match-1' });
  });

  it('ends the call as a leave when the leaving page’s socket was lost just before its leave arrived', async () => {
    const { start, coordinator, recorded, to } = setUp();
    await start('ada', 's1');
    await start('bob', 's2');
    await coordinator.handle({ kind: 'socket-lost', userId: 'ada', socketId: 's1' });
    await coordinator.handle({ kind: 'leave', userId: 'ada', socketId: 's1', reason: 'leave' });

    expect(recorded[1]).toEqual({ type: 'End', matchId: 'match-1', endedBy: 'ada', reason: 'leave' });
    expect(to('bob').at(-1)).toEqual({ kind: 'partner-left', matchId: 'match-1', reason: 'leave' });
    // An old tab's leave does not end a call another socket holds.
    await start('cleo', 's3');
    await start('dan', 's4');
    await coordinator.handle({ kind: 'leave', userId: 'cleo', socketId: 'old-tab', reason: 'leave' });
    expect(coordinator.snapshot().calls).toHaveLength(1);
  });

  it('drops a search whose socket is lost, and says the call is fully connected once both sides are', async () => {
    const { start, coordinator, to } = setUp();
    await start('ada', 's1');
    await coordinator.handle({ kind: 'socket-lost', userId: 'ada', socketId: 's1' });
    expect(coordinator.snapshot().waiting).toEqual([]);

    await start('ada', 's1b');
    await start('bob', 's2');
    await coordinator.handle({ kind: 'rtc-connected', userId: 'ada', socketId: 's1b', matchId: 'match-1' });
    expect(to('bob').filter((d) => d.kind === 'fully-connected')).toEqual([]);
    await coordinator.handle({ kind: 'rtc-connected', userId: 'bob', socketId: 's2', matchId: 'match-1' });
    expect(to('ada').at(-1)).toEqual({ kind: 'fully-connected', matchId: 'match-1' });
    expect(to('bob').at(-1)).toEqual({ kind: 'fully-connected', matchId: 'match-1' });
  });

  it('gives up a call that never connected as a timeout, with no cooldown between the two', async () => {
    const { start, coordinator, recorded, to } = setUp();
    await start('ada', 's1');
    await start('bob', 's2');
    await coordinator.handle({ kind: 'leave', userId: 'ada', socketId: 's1', reason: 'timeout' });

    expect(recorded[1]).toEqual({ type: 'End', matchId: 'match-1', endedBy: 'ada', reason: 'timeout' });
    expect(to('bob').at(-1)).toEqual({ kind: 'partner-left', matchId: 'match-1', reason: 'disconnect' });
    await start('ada', 's1');
    await start('bob', 's2');
    expect(recorded[2]).toMatchObject({ type: 'Pair', sides: [{ userId: 'ada' }, { userId: 'bob' }] });
  });

  it('tells both their search is over when the log refuses the pairing, and keeps no call', async () => {
    const { start, coordinator, recorded, to, errors } = setUp({ failToRecord: 'Pair' });
    await start('ada', 's1');
    await start('bob', 's2');

    expect(recorded).toEqual([]);
    expect(errors).toEqual(['recording a pairing']);
    expect(to('ada')).toEqual([{ kind: 'unavailable', socketId: 's1' }]);
    expect(to('bob')).toEqual([{ kind: 'unavailable', socketId: 's2' }]);
    expect(coordinator.snapshot()).toEqual({ waiting: [], calls: [] });
  });

  it('still tells the partner a call ended when the log refuses the ending', async () => {
    const { start, coordinator, to, errors } = setUp({ failToRecord: 'End' });
    await start('ada', 's1');
    await start('bob', 's2');
    await coordinator.handle({ kind: 'leave', userId: 'bob', socketId: 's2', reason: 'leave' });

    expect(errors).toEqual(['recording the end of a call']);
    expect(to('ada').at(-1)).toEqual({ kind: 'partner-left', matchId: 'match-1', reason: 'leave' });
    expect(coordinator.snapshot().calls).toEqual([]);
  });
});

describe('reports and bans', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  const pairs = (recorded: MatchCommand[]) =>
    recorded.flatMap((c) => (c.type === 'Pair' ? [c.sides.map((s) => s.userId).join('+')] : []));

  it('never pairs a reported pair again, whoever searches first, and each still meets others', async () => {
    for (const [first, second] of [
      ['ada', 'bob'],
      ['bob', 'ada'],
    ] as const) {
      const { start, coordinator, recorded, tick } = setUp();
      coordinator.keepApart('ada', 'bob');
      await start(first, `s-${first}`);
      tick(1_000);
      await start(second, `s-${second}`);
      expect(pairs(recorded)).toEqual([]);
      expect(coordinator.snapshot().waiting).toEqual([first, second]);
      // Long after: for good is for good (a skip's cooldown would have ended by now).
      tick(365 * 24 * 60 * 60_000);
      await start('cleo', 's-cleo');
      await start('dan', 's-dan');
      expect(pairs(recorded)).toEqual([`${first}+cleo`, `${second}+dan`]);
    }
  });

  it('keeps apart a pair separated while both were waiting or in a call together', async () => {
    const { start, coordinator, recorded } = setUp();
    await start('ada', 's-ada');
    await start('bob', 's-bob');
    expect(pairs(recorded)).toEqual(['ada+bob']);
    // The report is filed from inside the call; the call goes on until someone leaves it.
    coordinator.keepApart('bob', 'ada');
    expect(coordinator.snapshot().calls).toHaveLength(1);
    await coordinator.handle({ kind: 'leave', userId: 'ada', socketId: 's-ada', reason: 'leave' });
    await start('ada', 's-ada');
    await start('bob', 's-bob');
    expect(pairs(recorded)).toEqual(['ada+bob']);
  });

  it("a ban ends the banned user's call at once as 'ban': the partner hears why, and may be paired again", async () => {
    const { start, coordinator, recorded, to } = setUp();
    await start('ada', 's-ada');
    await start('bob', 's-bob');
    await coordinator.handle({ kind: 'banned', userId: 'bob' });

    expect(recorded.at(-1)).toEqual({ type: 'End', matchId: 'match-1', endedBy: 'bob', reason: 'ban' });
    expect(to('ada').at(-1)).toEqual({ kind: 'partner-left', matchId: 'match-1', reason: 'ban' });
    expect(to('bob').some((d) => d.kind === 'partner-left')).toBe(false);
    expect(coordinator.snapshot().calls).toEqual([]);
    await start('ada', 's-ada');
    await start('cleo', 's-cleo');
    expect(pairs(recorded)).toEqual(['ada+bob', 'ada+cleo']);
    // A second word of the same ban finds nothing left to end.
    await coordinator.handle({ kind: 'banned', userId: 'bob' });
    expect(recorded.filter((c) => c.type === 'End')).toHaveLength(1);
  });

  it("a ban ends the banned user's search, and a call whose banned side had lost its socket", async () => {
    const { start, coordinator, recorded, to } = setUp();
    await start('eve', 's-eve');
    await coordinator.handle({ kind: 'banned', userId: 'eve' });
    expect(coordinator.snapshot().waiting).toEqual([]);
    await start('ada', 's-ada');
    expect(pairs(recorded)).toEqual([]);

    await start('bob', 's-bob');
    // The gateway closed bob's socket before the leader heard of the ban: no grace period for a banned user.
    await coordinator.handle({ kind: 'socket-lost', userId: 'bob', socketId: 's-bob' });
    await coordinator.handle({ kind: 'banned', userId: 'bob' });
    expect(recorded.at(-1)).toEqual({ type: 'End', matchId: 'match-1', endedBy: 'bob', reason: 'ban' });
    expect(to('ada').at(-1)).toEqual({ kind: 'partner-left', matchId: 'match-1', reason: 'ban' });
    await vi.advanceTimersByTimeAsync(10_000);
    expect(recorded.filter((c) => c.type === 'End')).toHaveLength(1);
  });
});

describe('the media path of calls', () => {
  const matchOf = (deliveries: UserDelivery[]) =>
    deliveries.find((d): d is Extract<UserDelivery, { kind: 'match' }> => d.kind === 'match')!;

  it('auto mode: calls start peer to peer with the SFU as their fallback', async () => {
    const { start, to, rooms } = setUp({ mode: 'auto' });
    await start('ann', 's-ann');
    await start('bob', 's-bob');
    const { match, sfuNode } = matchOf(to('ann'));
    expect(match).toMatchObject({ media: 'p2p', relayFallback: true });
    expect(sfuNode).toBeUndefined();
    expect(rooms.size).toBe(0);
  });

  it('relay mode: every call gets a room before anyone hears of it, recorded with its node, closed at the end', async () => {
    const { start, to, rooms, roomPeers, recorded, coordinator } = setUp({ mode: 'relay' });
    await start('ann', 's-ann');
    await start('bob', 's-bob');
    for (const user of ['ann', 'bob']) {
      expect(matchOf(to(user))).toMatchObject({ sfuNode: 'node-1', match: { media: 'relay', relayFallback: false } });
    }
    // The room takes the call's two users and nobody else (the SFU refuses other peer ids).
    expect(roomPeers.get('match-1')).toEqual(['ann', 'bob']);
    expect(recorded.map((c) => c.type)).toEqual(['Pair', 'Relay']);
    expect(recorded[1]).toMatchObject({ reason: 'relay-mode', sfuNode: 'node-1' });
    expect(rooms.has('match-1')).toBe(true);
    await coordinator.handle({ kind: 'leave', userId: 'ann', socketId: 's-ann', reason: 'skip' });
    await vi.waitFor(() => expect(rooms.size).toBe(0));
  });

  it('"hide my IP" on either side relays that call even in p2p-first auto mode', async () => {
    const { start, to, recorded } = setUp({ mode: 'auto' });
    await start('ann', 's-ann', ANY, profile('ann', 'female', 30, true));
    await start('bob', 's-bob');
    expect(matchOf(to('bob')).match.media).toBe('relay');
    expect(recorded[1]).toMatchObject({ type: 'Relay', reason: 'hide-ip' });
  });

  it('a hidden IP never falls back to peer to peer: with the SFU down both hear the call is unavailable', async () => {
    const { start, to, recorded, errors } = setUp({ mode: 'auto', sfuDown: true });
    await start('ann', 's-ann', ANY, profile('ann', 'female', 30, true));
    await start('bob', 's-bob');
    expect(to('ann')).toEqual([{ kind: 'unavailable', socketId: 's-ann' }]);
    expect(to('bob')).toEqual([{ kind: 'unavailable', socketId: 's-bob' }]);
    expect(recorded).toEqual([]);
    expect(errors).toEqual(['opening a relayed call']);
  });

  it('auto mode: a failed peer connection moves the call to the SFU for both sides, once', async () => {
    const { start, to, recorded, coordinator } = setUp({ mode: 'auto' });
    await start('ann', 's-ann');
    await start('bob', 's-bob');
    const fallback = { kind: 'fallback', userId: 'ann', socketId: 's-ann', matchId: 'match-1' } as const;
    await coordinator.handle(fallback);
    await coordinator.handle({ ...fallback, userId: 'bob', socketId: 's-bob' });
    const moved = {
      kind: 'media-path',
      matchId: 'match-1',
      sfuNode: 'node-1',
      event: 'media:path',
      reason: 'p2p-failed',
    };
    expect(to('ann').filter((d) => d.kind === 'media-path')).toEqual([moved]);
    expect(to('bob').filter((d) => d.kind === 'media-path')).toEqual([moved]);
    expect(recorded.filter((c) => c.type === 'Relay')).toEqual([
      { type: 'Relay', matchId: 'match-1', reason: 'p2p-failed', sfuNode: 'node-1' },
    ]);
    // A stranger's fallback for someone else's call does nothing.
    await coordinator.handle({ ...fallback, userId: 'eve', socketId: 's-eve' });
    expect(recorded.filter((c) => c.type === 'Relay')).toHaveLength(1);
  });

  it('auto mode with an SFU that fails to open the room: the failed call ends as a timeout, both search again', async () => {
    const { start, to, recorded, coordinator } = setUp({ mode: 'auto', sfuDown: true, relayAvailable: true });
    await start('ann', 's-ann');
    await start('bob', 's-bob');
    await coordinator.handle({ kind: 'fallback', userId: 'ann', socketId: 's-ann', matchId: 'match-1' });
    expect(recorded.at(-1)).toMatchObject({ type: 'End', reason: 'timeout', endedBy: null });
    for (const user of ['ann', 'bob']) {
      expect(to(user).at(-1)).toEqual({ kind: 'partner-left', matchId: 'match-1', reason: 'disconnect' });
    }
  });

  it('with no SFU able to relay, relay mode calls go peer to peer and auto mode offers no fallback', async () => {
    for (const mode of ['relay', 'auto'] as const) {
      const { start, to, rooms, coordinator } = setUp({ mode, relayAvailable: false });
      await start('ann', 's-ann');
      await start('bob', 's-bob');
      expect(matchOf(to('ann')).match).toMatchObject({ media: 'p2p', relayFallback: false });
      await coordinator.handle({ kind: 'fallback', userId: 'ann', socketId: 's-ann', matchId: 'match-1' });
      expect(rooms.size).toBe(0);
      expect(to('ann').some((d) => d.kind === 'partner-left')).toBe(false);
    }
  });

  it('p2p mode never relays, even when asked', async () => {
    const { start, to, rooms, coordinator } = setUp({ mode: 'p2p' });
    await start('ann', 's-ann');
    await start('bob', 's-bob');
    expect(matchOf(to('ann')).match).toMatchObject({ media: 'p2p', relayFallback: false });
    await coordinator.handle({ kind: 'fallback', userId: 'ann', socketId: 's-ann', matchId: 'match-1' });
    expect(rooms.size).toBe(0);
  });

  it('a side that opens the Report dialog moves a peer-to-peer call to the SFU for both, recorded as a report', async () => {
    for (const mode of ['auto', 'relay'] as const) {
      // relay mode: a call that went peer to peer because no SFU could take it when it began.
      const options = { mode, relayAvailable: mode === 'auto' };
      const { start, to, recorded, coordinator } = setUp(options);
      await start('ann', 's-ann');
      await start('bob', 's-bob');
      expect(matchOf(to('ann')).match.media).toBe('p2p');
      options.relayAvailable = true;
      const opened = { kind: 'report-opened', userId: 'bob', socketId: 's-bob', matchId: 'match-1' } as const;
      // A stranger naming someone else's call moves nothing.
      await coordinator.handle({ ...opened, userId: 'eve', socketId: 's-eve' });
      expect(recorded.filter((c) => c.type === 'Relay')).toEqual([]);
      await coordinator.handle(opened);
      const moved = {
        kind: 'media-path',
        matchId: 'match-1',
        sfuNode: 'node-1',
        event: 'media:path',
        reason: 'report',
      };
      expect(to('ann').filter((d) => d.kind === 'media-path')).toEqual([moved]);
      expect(to('bob').filter((d) => d.kind === 'media-path')).toEqual([moved]);
      // Opened again, or by the other side: the call is relayed already.
      await coordinator.handle(opened);
      await coordinator.handle({ ...opened, userId: 'ann', socketId: 's-ann' });
      expect(recorded.filter((c) => c.type === 'Relay')).toEqual([
        { type: 'Relay', matchId: 'match-1', reason: 'report', sfuNode: 'node-1' },
      ]);
    }
  });

  it('the Report dialog moves nothing without an SFU or in p2p mode, and a room that fails leaves the call on', async () => {
    const opened = { kind: 'report-opened', userId: 'ann', socketId: 's-ann', matchId: 'match-1' } as const;
    for (const options of [{ mode: 'auto', relayAvailable: false }, { mode: 'p2p' }] as const) {
      const { start, to, rooms, recorded, coordinator } = setUp(options);
      await start('ann', 's-ann');
      await start('bob', 's-bob');
      await coordinator.handle(opened);
      expect(rooms.size).toBe(0);
      expect(recorded.map((c) => c.type)).toEqual(['Pair']);
      expect(to('bob').some((d) => d.kind === 'media-path')).toBe(false);
    }
    const { start, to, recorded, coordinator, errors } = setUp({ mode: 'auto', sfuDown: true, relayAvailable: true });
    await start('ann', 's-ann');
    await start('bob', 's-bob');
    await coordinator.handle(opened);
    expect(errors).toEqual(['relaying a reported call']);
    // Unlike a failed peer connection, this call works: it goes on peer to peer.
    expect(recorded.map((c) => c.type)).toEqual(['Pair']);
    expect(coordinator.snapshot().calls).toHaveLength(1);
    expect(to('bob').some((d) => d.kind === 'partner-left' || d.kind === 'media-path')).toBe(false);
  });

  describe('a new leader, told of the calls in progress by the gateways (adopt)', () => {
    beforeEach(() => vi.useFakeTimers());
    afterEach(() => vi.useRealTimers());
    const adopt = (
      userId: string,
      socketId: string,
      partner: string,
      partnerAlias: string,
      role: 'offerer' | 'answerer' = 'offerer',
    ) => ({
      kind: 'adopt' as const,
      userId,
      socketId,
      matchId: 'old-call',
      role,
      sharedInterests: ['chess'],
      own: profile(userId).public,
      partner: { userId: partner, alias: partnerAlias, public: profile(partner).public },
    });

    it('makes a relayed call its room again: both sides join it, a page waiting to come back too', async () => {
      const { coordinator, to, recorded, closed, rooms } = setUp({ mode: 'relay' });
      coordinator.takeOver();
      // Bob's page was on the node that died; it asks to come back before Ada's gateway tells.
      void coordinator.handle({ kind: 'resume', userId: 'bob', socketId: 'sb2', matchId: 'old-call' });
      await vi.advanceTimersByTimeAsync(500);
      await coordinator.handle({
        ...adopt('ada', 'sa', 'bob', 'bob-alias'),
        relay: { sfuNode: 'dead', reason: 'hide-ip' },
      });

      // The room the old leader made may be gone with its node: it is made again, and the old one closed.
      expect(rooms.get('old-call')).toBe('node-1');
      expect(closed).toEqual([{ matchId: 'old-call', sfuNode: 'dead' }]);
      expect(to('ada')).toContainEqual({
        kind: 'media-path',
        matchId: 'old-call',
        sfuNode: 'node-1',
        event: 'media:reconnect',
        reason: 'hide-ip',
      });
      expect(to('bob').at(-1)).toMatchObject({
        kind: 'match',
        event: 'matchResumed',
        socketId: 'sb2',
        sfuNode: 'node-1',
        relayReason: 'hide-ip',
        match: { matchId: 'old-call', media: 'relay' },
      });
      expect(recorded).toEqual([{ type: 'Relay', matchId: 'old-call', reason: 'hide-ip', sfuNode: 'node-1' }]);
      // The other side's gateway tells too (it was not on the dead node): nothing is made twice.
      await coordinator.handle({
        ...adopt('bob', 'sb2', 'ada', 'ada-alias', 'answerer'),
        relay: { sfuNode: 'node-1', reason: 'hide-ip' },
      });
      expect(recorded).toHaveLength(1);
      // It ends as any relayed call: the partner hears it, its room is closed.
      await coordinator.handle({ kind: 'leave', userId: 'ada', socketId: 'sa', reason: 'leave' });
      expect(to('bob').at(-1)).toEqual({ kind: 'partner-left', matchId: 'old-call', reason: 'leave' });
      expect(closed.at(-1)).toEqual({ matchId: 'old-call', sfuNode: 'node-1' });
      expect(rooms.has('old-call')).toBe(false);
    });

    it('a relayed call whose SFU still runs keeps its room; one no SFU can take ends, and both hear why', async () => {
      // Its node, asked first, gives back the room it still holds: nothing to close.
      const kept = setUp({ mode: 'relay', sfu: async (_matchId, on) => on ?? 'another-node' });
      kept.coordinator.takeOver();
      await kept.coordinator.handle({
        ...adopt('ada', 'sa', 'bob', 'bob-alias'),
        relay: { sfuNode: 'still-up', reason: 'p2p-failed' },
      });
      expect(kept.closed).toEqual([]);
      expect(kept.to('ada')).toContainEqual(
        expect.objectContaining({ kind: 'media-path', sfuNode: 'still-up', event: 'media:reconnect' }),
      );

      const none = setUp({ mode: 'relay', sfuDown: true });
      none.coordinator.takeOver();
      await none.coordinator.handle({
        ...adopt('ada', 'sa', 'bob', 'bob-alias'),
        relay: { sfuNode: 'dead', reason: 'relay-mode' },
      });
      expect(none.to('ada').at(-1)).toEqual({ kind: 'partner-left', matchId: 'old-call', reason: 'disconnect' });
      expect(none.recorded).toEqual([{ type: 'End', matchId: 'old-call', endedBy: null, reason: 'disconnect' }]);
    });

    it('closes the room of a relayed call told of after one of its two moved on', async () => {
      const { coordinator, to, closed, start } = setUp({ mode: 'relay' });
      coordinator.takeOver();
      await start('bob', 'sb2');
      await coordinator.handle({
        ...adopt('ada', 'sa', 'bob', 'bob-alias'),
        relay: { sfuNode: 'n9', reason: 'hide-ip' },
      });
      expect(to('ada')).toEqual([{ kind: 'call-over', socketId: 'sa', matchId: 'old-call' }]);
      expect(closed).toEqual([{ matchId: 'old-call', sfuNode: 'n9' }]);
    });

    it('takes the call from one side; the other side resumes it and is shown the same partner', async () => {
      const { coordinator, to, recorded } = setUp();
      coordinator.takeOver();
      await coordinator.handle(adopt('ada', 'sa', 'bob', 'bob-alias'));
      await coordinator.handle({ kind: 'resume', userId: 'bob', socketId: 'sb2', matchId: 'old-call' });

      expect(to('bob').at(-1)).toMatchObject({
        kind: 'match',
        event: 'matchResumed',
        socketId: 'sb2',
        partnerUserId: 'ada',
        match: { matchId: 'old-call', role: 'answerer', partnerUser: { firstName: 'ada' }, sharedInterests: ['chess'] },
      });
      expect(to('ada').at(-1)).toEqual({ kind: 'partner-reconnected', matchId: 'old-call' });
      // Leaving works as in any call: the partner hears it and it is recorded.
      await coordinator.handle({ kind: 'leave', userId: 'bob', socketId: 'sb2', reason: 'leave' });
      expect(to('ada').at(-1)).toEqual({ kind: 'partner-left', matchId: 'old-call', reason: 'leave' });
      expect(recorded).toEqual([{ type: 'End', matchId: 'old-call', endedBy: 'bob', reason: 'leave' }]);
    });

    it('keeps both aliases when both gateways tell, and ends the call if one side never comes back', async () => {
      const { coordinator, to, recorded } = setUp();
      coordinator.takeOver();
      await coordinator.handle(adopt('ada', 'sa', 'bob', 'bob-alias'));
      await coordinator.handle(adopt('bob', 'sb', 'ada', 'ada-alias', 'answerer'));
      await coordinator.handle({ kind: 'resume', userId: 'bob', socketId: 'sb2', matchId: 'old-call' });
      expect(to('bob').at(-1)).toMatchObject({ match: { partnerId: 'ada-alias', role: 'answerer' } });

      const lone = setUp();
      await lone.coordinator.handle(adopt('ada', 'sa', 'bob', 'bob-alias'));
      await vi.advanceTimersByTimeAsync(10_000);
      expect(lone.to('ada').at(-1)).toEqual({ kind: 'partner-left', matchId: 'old-call', reason: 'disconnect' });
      expect(lone.recorded).toEqual([{ type: 'End', matchId: 'old-call', endedBy: null, reason: 'disconnect' }]);
      expect(recorded).toEqual([]);
    });

    it('answers a resume that comes before the gateways told as soon as they have, and says over only after', async () => {
      const { coordinator, to, tick } = setUp();
      coordinator.takeOver();
      void coordinator.handle({ kind: 'resume', userId: 'bob', socketId: 'sb2', matchId: 'old-call' });
      void coordinator.handle({ kind: 'resume', userId: 'cleo', socketId: 'sc', matchId: 'gone-call' });
      await vi.advanceTimersByTimeAsync(1_000);
      await coordinator.handle(adopt('ada', 'sa', 'bob', 'bob-alias'));
      expect(to('bob')).toEqual([expect.objectContaining({ kind: 'match', event: 'matchResumed', socketId: 'sb2' })]);
      expect(to('ada')).toEqual([{ kind: 'partner-reconnected', matchId: 'old-call' }]);
      expect(to('cleo')).toEqual([]);
      tick(3_000);
      await vi.advanceTimersByTimeAsync(2_500);
      expect(to('bob')).toHaveLength(1);
      expect(to('cleo')).toEqual([{ kind: 'call-over', socketId: 'sc', matchId: 'gone-call' }]);
    });

    it('a resume withdrawn while it waited (Stop, a lost socket, a new search, a ban) brings back no call', async () => {
      for (const withdraw of ['leave', 'socket-lost', 'start', 'banned'] as const) {
        const { coordinator, to, tick, recorded, start } = setUp();
        coordinator.takeOver();
        void coordinator.handle({ kind: 'resume', userId: 'bob', socketId: 'sb2', matchId: 'old-call' });
        await vi.advanceTimersByTimeAsync(500);
        if (withdraw === 'leave')
          await coordinator.handle({
            kind: 'leave',
            userId: 'bob',
            socketId: 'sb2',
            reason: 'leave',
            matchId: 'old-call',
          });
        else if (withdraw === 'socket-lost')
          await coordinator.handle({ kind: 'socket-lost', userId: 'bob', socketId: 'sb2' });
        else if (withdraw === 'start') await start('bob', 'sb2');
        else await coordinator.handle({ kind: 'banned', userId: 'bob' });
        await coordinator.handle(adopt('ada', 'sa', 'bob', 'bob-alias'));
        tick(3_000);
        await vi.advanceTimersByTimeAsync(2_500);

        // Bob is never put back into the call he left: Ada's chat and ICE must not reach him.
        expect(
          to('bob').filter((d) => d.kind === 'match'),
          withdraw,
        ).toEqual([]);
        if (withdraw === 'socket-lost') {
          // A lost connection has its grace period, as after any blip; then Ada hears he is gone.
          expect(to('ada'), withdraw).toEqual([]);
          await vi.advanceTimersByTimeAsync(10_000);
          expect(to('ada'), withdraw).toEqual([{ kind: 'partner-left', matchId: 'old-call', reason: 'disconnect' }]);
        } else if (withdraw === 'start') {
          // He moved on to a new search: Ada's old call is over.
          expect(to('ada'), withdraw).toEqual([{ kind: 'call-over', socketId: 'sa', matchId: 'old-call' }]);
          expect(coordinator.snapshot(), withdraw).toEqual({ waiting: ['bob'], calls: [] });
        } else {
          // Ada hears at once why the call is over, and the log has the ending with who ended it.
          expect(to('ada'), withdraw).toEqual([
            { kind: 'partner-left', matchId: 'old-call', reason: withdraw === 'leave' ? 'leave' : 'ban' },
          ]);
          expect(recorded, withdraw).toEqual([
            { type: 'End', matchId: 'old-call', endedBy: 'bob', reason: withdraw === 'leave' ? 'leave' : 'ban' },
          ]);
          expect(coordinator.snapshot(), withdraw).toEqual({ waiting: [], calls: [] });
        }
      }
    });

    it("a Stop in another of the user's tabs, while the gateways tell, does not end the call this tab is in", async () => {
      const { coordinator, to, recorded } = setUp();
      coordinator.takeOver();
      // Bob closes a second tab (in no call) as the new leader starts; his first tab is still in the call with Ada.
      await coordinator.handle({ kind: 'leave', userId: 'bob', socketId: 'sb-other', reason: 'leave' });
      await coordinator.handle(adopt('ada', 'sa', 'bob', 'bob-alias'));
      await coordinator.handle(adopt('bob', 'sb', 'ada', 'ada-alias', 'answerer'));
      expect(to('ada').filter((d) => d.kind === 'partner-left')).toEqual([]);
      expect(recorded).toEqual([]);
      expect(coordinator.snapshot().calls).toEqual([{ matchId: 'old-call', userIds: ['ada', 'bob'] }]);
      // A Stop naming the call does end it as his leave.
      const stopped = setUp();
      stopped.coordinator.takeOver();
      await stopped.coordinator.handle({
        kind: 'leave',
        userId: 'bob',
        socketId: 'sb',
        reason: 'leave',
        matchId: 'old-call',
      });
      await stopped.coordinator.handle(adopt('ada', 'sa', 'bob', 'bob-alias'));
      expect(stopped.to('ada')).toEqual([{ kind: 'partner-left', matchId: 'old-call', reason: 'leave' }]);
    });

    it('a search in another tab while a resume waits tells the waiting tab it was replaced', async () => {
      const { coordinator, to, start } = setUp();
      coordinator.takeOver();
      void coordinator.handle({ kind: 'resume', userId: 'bob', socketId: 'sb2', matchId: 'old-call' });
      await vi.advanceTimersByTimeAsync(100);
      await start('bob', 'sb3');
      expect(to('bob')).toEqual([{ kind: 'replaced', socketId: 'sb2' }]);
    });

    it('keeps waiting for the gateways while they are still telling, past the first 3 s', async () => {
      const { coordinator, to, tick } = setUp();
      coordinator.takeOver();
      void coordinator.handle({ kind: 'resume', userId: 'bob', socketId: 'sb2', matchId: 'old-call' });
      // A busy node tells of its calls one by one: another call at 2.5 s, Bob's at 3.3 s.
      tick(2_500);
      await vi.advanceTimersByTimeAsync(2_500);
      await coordinator.handle({ ...adopt('cleo', 'sc', 'dan', 'dan-alias'), matchId: 'cleo-call' });
      tick(800);
      await vi.advanceTimersByTimeAsync(800);
      await coordinator.handle(adopt('ada', 'sa', 'bob', 'bob-alias'));
      expect(to('bob')).toEqual([expect.objectContaining({ kind: 'match', event: 'matchResumed', socketId: 'sb2' })]);
    });

    it('a resume asked twice by the same new page restarts the media once', async () => {
      const { coordinator, to } = setUp();
      coordinator.takeOver();
      await coordinator.handle(adopt('ada', 'sa', 'bob', 'bob-alias'));
      const fresh = { kind: 'resume', userId: 'bob', socketId: 'sb2', matchId: 'old-call', fresh: true } as const;
      await coordinator.handle(fresh);
      await coordinator.handle(fresh);
      expect(to('ada')).toEqual([{ kind: 'partner-reconnected', matchId: 'old-call', mediaRestart: true }]);
      expect(to('bob').map((d) => d.kind === 'match' && [d.event, d.match.role])).toEqual([
        ['matchResumed', 'answerer'],
        ['matchResumed', 'answerer'],
      ]);
    });

    it('tells a side whose call is over, rather than dropping its word, and never makes an ended call again', async () => {
      const { coordinator, to, start } = setUp();
      coordinator.takeOver();
      await coordinator.handle(adopt('ada', 'sa', 'bob', 'bob-alias'));
      await coordinator.handle({ kind: 'leave', userId: 'ada', socketId: 'sa', reason: 'leave' });
      // Bob's gateway tells of the same call after it ended: his page hears it is over.
      await coordinator.handle(adopt('bob', 'sb', 'ada', 'ada-alias', 'answerer'));
      expect(to('bob')).toEqual([{ kind: 'call-over', socketId: 'sb', matchId: 'old-call' }]);
      expect(coordinator.snapshot().calls).toEqual([]);

      // A partner searching again: the call is not made, and the side that told hears it is over.
      await start('dan', 'sd');
      await coordinator.handle({ ...adopt('cleo', 'sc', 'dan', 'dan-alias'), matchId: 'cleo-call' });
      expect(to('cleo')).toEqual([{ kind: 'call-over', socketId: 'sc', matchId: 'cleo-call' }]);
    });

    it('a search asked again of a new leader (the same search) does not end the call it already made', async () => {
      const { coordinator, to, recorded } = setUp();
      const ask = (userId: string, socketId: string, seekId: string) =>
        coordinator.handle({ kind: 'start', userId, socketId, seekId, profile: profile(userId), filters: ANY });
      await ask('ada', 'sa', 'ada-search-1');
      await ask('bob', 'sb', 'bob-search-1');
      expect(coordinator.snapshot().calls).toHaveLength(1);
      // The gateway re-sent Bob's search to the new leader before it heard of his match.
      await ask('bob', 'sb', 'bob-search-1');
      expect(coordinator.snapshot().calls).toHaveLength(1);
      expect(to('ada').filter((d) => d.kind === 'partner-left')).toEqual([]);
      expect(recorded.filter((r) => r.type === 'End')).toEqual([]);
      // A new search from the same page (Next) does leave the call.
      await ask('bob', 'sb', 'bob-search-2');
      expect(to('ada').at(-1)).toEqual({ kind: 'partner-left', matchId: 'match-1', reason: 'leave' });
    });

    it('does not make a call again for someone who has moved on (searching, or in another call)', async () => {
      const { coordinator, start, to } = setUp();
      await start('bob', 'sb');
      await coordinator.handle(adopt('ada', 'sa', 'bob', 'bob-alias'));
      await coordinator.handle({ kind: 'resume', userId: 'ada', socketId: 'sa2', matchId: 'old-call' });
      expect(to('ada').at(-1)).toEqual({ kind: 'call-over', socketId: 'sa2', matchId: 'old-call' });
      expect(coordinator.snapshot()).toEqual({ waiting: ['bob'], calls: [] });
    });
  });

  describe('a backend node that dies without a word (its sockets never say they are lost)', () => {
    beforeEach(() => vi.useFakeTimers());
    afterEach(() => vi.useRealTimers());
    /** Heartbeats from these nodes for `ms`, once a second, the clock moving with the timers. */
    async function alive(t: ReturnType<typeof setUp>, nodes: string[], ms: number) {
      for (let at = 0; at < ms; at += 1_000) {
        for (const node of nodes) t.coordinator.nodeAlive(node);
        t.tick(1_000);
        await vi.advanceTimersByTimeAsync(1_000);
      }
    }
    const startOn = (t: ReturnType<typeof setUp>, userId: string, node: string, filters = ANY) =>
      t.coordinator.handle({ kind: 'start', userId, socketId: `s-${userId}`, node, profile: profile(userId), filters });
    /** Ada on node-a and Bob on node-b in a call; then node-b is silent for `silentMs` while node-a beats on. */
    async function bobsNodeSilent(t: ReturnType<typeof setUp>, silentMs: number) {
      await startOn(t, 'ada', 'node-a');
      await startOn(t, 'bob', 'node-b');
      await alive(t, ['node-a', 'node-b'], 2_000);
      await alive(t, ['node-a'], silentMs);
    }

    it("drops the dead node's searches and gives its side of each call the grace period, as a lost socket", async () => {
      const t = setUp();
      await startOn(t, 'ada', 'node-a');
      await startOn(t, 'bob', 'node-b');
      await startOn(t, 'cleo', 'node-b', { ...ANY, gender: 'female' });
      expect(t.coordinator.snapshot()).toMatchObject({ waiting: ['cleo'], calls: [{ userIds: ['ada', 'bob'] }] });
      await alive(t, ['node-a', 'node-b'], 3_000);
      // node-b dies: node-a goes on beating.
      await alive(t, ['node-a'], 6_000);
      expect(t.coordinator.snapshot().waiting).toEqual([]);
      expect(t.to('ada').at(-1)).toEqual({ kind: 'partner-reconnecting', matchId: 'match-1' });
      // Bob's page comes back through node-a within the grace period: the call goes on.
      await t.coordinator.handle({
        kind: 'resume',
        userId: 'bob',
        socketId: 's-bob-2',
        node: 'node-a',
        matchId: 'match-1',
      });
      expect(t.to('bob').at(-1)).toMatchObject({ kind: 'match', event: 'matchResumed', socketId: 's-bob-2' });
      expect(t.to('ada').at(-1)).toEqual({ kind: 'partner-reconnected', matchId: 'match-1' });
      // A node taken for dead that beats again was only cut off: its gateway is asked to tell again, once.
      expect(t.coordinator.nodeAlive('node-b')).toBe('back');
      expect(t.coordinator.nodeAlive('node-b')).toBeUndefined();
      expect(t.coordinator.nodeAlive('node-a')).toBeUndefined();
    });

    it('a node only cut off from the bus for a while tells of its call again, and the call goes on', async () => {
      const t = setUp();
      await bobsNodeSilent(t, 6_000);
      expect(t.to('ada').at(-1)).toEqual({ kind: 'partner-reconnecting', matchId: 'match-1' });
      expect(t.coordinator.nodeAlive('node-b')).toBe('back');
      // Its gateway tells of Bob's call, as it would a new leader.
      const bobMatch = t.to('bob').find((d) => d.kind === 'match')!;
      const alias = bobMatch.kind === 'match' ? bobMatch.match.partnerId : '';
      await t.coordinator.handle({
        kind: 'adopt',
        userId: 'bob',
        socketId: 's-bob',
        node: 'node-b',
        matchId: 'match-1',
        role: 'answerer',
        sharedInterests: [],
        own: profile('bob').public,
        partner: { userId: 'ada', alias, public: profile('ada').public },
      });
      expect(t.to('ada').at(-1)).toEqual({ kind: 'partner-reconnected', matchId: 'match-1' });
      await alive(t, ['node-a', 'node-b'], 15_000);
      expect(t.coordinator.snapshot().calls).toEqual([{ matchId: 'match-1', userIds: ['ada', 'bob'] }]);
    });

    it('a page that never comes back: the partner hears it once the grace period is over', async () => {
      const t = setUp();
      await bobsNodeSilent(t, 16_000);
      expect(t.to('ada').at(-1)).toEqual({ kind: 'partner-left', matchId: 'match-1', reason: 'disconnect' });
      expect(t.recorded.at(-1)).toEqual({ type: 'End', matchId: 'match-1', endedBy: null, reason: 'disconnect' });
    });

    it('no heartbeat from anyone (the bus itself is down) loses nobody, nor does the first beat after it', async () => {
      const t = setUp();
      await startOn(t, 'ada', 'node-a');
      await startOn(t, 'bob', 'node-b');
      await startOn(t, 'cleo', 'node-b', { ...ANY, gender: 'female' });
      await alive(t, ['node-a', 'node-b'], 2_000);
      // NATS is down for 8 s: nothing reaches the leader.
      t.tick(8_000);
      await vi.advanceTimersByTimeAsync(8_000);
      // Then node-a's beat comes a moment before node-b's.
      t.coordinator.nodeAlive('node-a');
      t.tick(900);
      await vi.advanceTimersByTimeAsync(900);
      await alive(t, ['node-a', 'node-b'], 3_000);
      expect(t.coordinator.snapshot()).toMatchObject({ waiting: ['cleo'], calls: [{ userIds: ['ada', 'bob'] }] });
      expect(t.to('ada').filter((d) => d.kind === 'partner-reconnecting')).toEqual([]);
    });
  });

  it('a leader that stands down leaves the rooms of its calls to the next one, which the gateways tell of them', async () => {
    const { start, rooms, closed, coordinator } = setUp({ mode: 'relay' });
    await start('ann', 's-ann');
    await start('bob', 's-bob');
    expect(rooms.size).toBe(1);
    coordinator.stop();
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(closed).toEqual([]);
    expect(rooms.size).toBe(1);
  });

  it('a room the SFU lost is made again and both sides are told to rejoin', async () => {
    const { start, to, coordinator } = setUp({ mode: 'relay' });
    await start('ann', 's-ann');
    await start('bob', 's-bob');
    // A report about another node's room (late, or repeated) is not about this call's room.
    await coordinator.handle({ kind: 'room-lost', matchId: 'match-1', sfuNode: 'node-9' });
    expect(to('ann').some((d) => d.kind === 'media-path')).toBe(false);
    await coordinator.handle({ kind: 'room-lost', matchId: 'match-1', sfuNode: 'node-1' });
    const rejoin = {
      kind: 'media-path',
      matchId: 'match-1',
      sfuNode: 'node-2',
      event: 'media:reconnect',
      reason: 'relay-mode',
    };
    expect(to('ann').at(-1)).toEqual(rejoin);
    expect(to('bob').at(-1)).toEqual(rejoin);
  });
});

/** An SFU whose answers the test releases: each room request waits until `answer` or `fail` is called for it. */
function heldSfu() {
  const held = new Map<string, { resolve(node: string): void; reject(error: Error): void }>();
  return {
    sfu: (matchId: string) => new Promise<string>((resolve, reject) => held.set(matchId, { resolve, reject })),
    asked: (matchId: string) => held.has(matchId),
    answer: (matchId: string, node = 'node-1') => held.get(matchId)!.resolve(node),
    fail: (matchId: string) => held.get(matchId)!.reject(new Error('Media relay is unavailable right now.')),
  };
}

describe('SFU abuse: SFU calls never block the matchmaker', () => {
  const matchOf = (deliveries: UserDelivery[]) =>
    deliveries.find((d): d is Extract<UserDelivery, { kind: 'match' }> => d.kind === 'match');
  // Far less than the SFU client's 2 s timeout: a pairing that waited for another call's room would miss it.
  const promptly = { timeout: 300, interval: 5 };

  it('while one call waits for an SFU that does not answer, other users are paired and told at once', async () => {
    const slow = heldSfu();
    // The first call's room hangs; every later one is made at once.
    const sfu = (matchId: string) => (matchId === 'match-1' ? slow.sfu(matchId) : Promise.resolve('node-2'));
    const { start, to, recorded, coordinator } = setUp({ mode: 'relay', sfu });
    const annAndBob = Promise.all([start('ann', 's-ann'), start('bob', 's-bob')]);
    await vi.waitFor(() => expect(slow.asked('match-1')).toBe(true), promptly);

    void start('cleo', 's-cleo');
    void start('dan', 's-dan');
    await vi.waitFor(() => expect(matchOf(to('dan'))).toMatchObject({ sfuNode: 'node-2' }), promptly);
    expect(matchOf(to('cleo'))?.match.matchId).toBe(matchOf(to('dan'))!.match.matchId);
    // ann and bob hear nothing until their room exists, and what they ask meanwhile waits for it, in order.
    expect(matchOf(to('ann'))).toBeUndefined();
    const annLeaves = coordinator.handle({ kind: 'leave', userId: 'ann', socketId: 's-ann', reason: 'leave' });
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(to('bob')).toEqual([]);

    slow.answer('match-1');
    await annAndBob;
    await annLeaves;
    expect(matchOf(to('ann'))).toMatchObject({ sfuNode: 'node-1', match: { matchId: 'match-1', media: 'relay' } });
    expect(to('bob').at(-1)).toEqual({ kind: 'partner-left', matchId: 'match-1', reason: 'leave' });
    expect(recorded.filter((c) => c.matchId === 'match-1').map((c) => c.type)).toEqual(['Pair', 'Relay', 'End']);
  });

  it('moving a call to the SFU, or making its lost room again, does not hold up anyone else', async () => {
    const slow = heldSfu();
    const { start, to, coordinator } = setUp({ mode: 'auto', sfu: slow.sfu });
    await start('ann', 's-ann');
    await start('bob', 's-bob');
    const moved = coordinator.handle({ kind: 'fallback', userId: 'ann', socketId: 's-ann', matchId: 'match-1' });
    await vi.waitFor(() => expect(slow.asked('match-1')).toBe(true), promptly);

    void start('cleo', 's-cleo');
    void start('dan', 's-dan');
    await vi.waitFor(() => expect(matchOf(to('dan'))?.match.matchId).toBe('match-2'), promptly);

    slow.answer('match-1', 'node-1');
    await moved;
    expect(to('bob').at(-1)).toEqual({
      kind: 'media-path',
      matchId: 'match-1',
      sfuNode: 'node-1',
      event: 'media:path',
      reason: 'p2p-failed',
    });

    // The room is lost; making it again hangs, and still others are paired meanwhile.
    const lost = coordinator.handle({ kind: 'room-lost', matchId: 'match-1', sfuNode: 'node-1' });
    await new Promise((resolve) => setTimeout(resolve, 5));
    void start('eve', 's-eve');
    void start('finn', 's-finn');
    await vi.waitFor(() => expect(matchOf(to('finn'))?.match.matchId).toBe('match-3'), promptly);
    slow.answer('match-1', 'node-3');
    await lost;
    expect(to('ann').at(-1)).toEqual({
      kind: 'media-path',
      matchId: 'match-1',
      sfuNode: 'node-3',
      event: 'media:reconnect',
      reason: 'p2p-failed',
    });
  });

  it('an SFU that refuses the room (full, or no answer in time) sends a relay-mode call peer to peer', async () => {
    const slow = heldSfu();
    const { start, to, recorded, errors } = setUp({ mode: 'relay', sfu: slow.sfu });
    const paired = Promise.all([start('ann', 's-ann'), start('bob', 's-bob')]);
    await vi.waitFor(() => expect(slow.asked('match-1')).toBe(true), promptly);
    slow.fail('match-1');
    await paired;
    expect(errors).toEqual(['opening a relayed call']);
    expect(matchOf(to('ann'))?.match).toMatchObject({ matchId: 'match-1', media: 'p2p', relayFallback: false });
    expect(recorded.map((c) => c.type)).toEqual(['Pair']);
  });
});
