import { randomUUID } from 'node:crypto';
import type { MatchFound } from '@serendip/proto';
import { describe, expect, it, vi } from 'vitest';
import { matchStream } from '../domain/match.events.js';
import {
  ANYONE,
  eventsWithin,
  nextEvent,
  openVideoSocket,
  videoTestApp,
  videoUser,
} from '../../test-support/video-users.js';

describe('the video socket (spec 7)', () => {
  const setup = videoTestApp();
  const { open } = setup;

  async function connected(profile: Parameters<typeof videoUser>[1] = {}) {
    const person = await videoUser(setup.app.base, profile);
    const socket = await person.connect();
    open.push(socket);
    return { ...person, socket };
  }

  /** Two users who start matching with no filters and are paired with each other. */
  async function pair() {
    const ada = await connected({ firstName: 'Ada', gender: 'female' });
    const bob = await connected({ firstName: 'Bob', gender: 'male', birthDate: '1984-02-02' });
    const adaFound = nextEvent(ada.socket, 'matchFound');
    const bobFound = nextEvent(bob.socket, 'matchFound');
    expect(await ada.socket.emitWithAck('startMatching', { filters: ANYONE, deviceType: 'desktop' })).toEqual({
      status: 'searching',
    });
    await bob.socket.emitWithAck('startMatching', { filters: ANYONE, deviceType: 'mobile' });
    return { ada, bob, adaMatch: await adaFound, bobMatch: await bobFound };
  }

  it('refuses a socket without a session, and one whose sign-up is unfinished, saying why', async () => {
    const stranger = await videoUser(setup.app.base, { finished: false });
    await expect(stranger.connect()).rejects.toMatchObject({
      data: { code: 'signup-unfinished', reason: 'Finish signing up before matching.' },
    });
    const nobody = await videoUser(setup.app.base);
    nobody.api.cookies.clear();
    await expect(nobody.connect()).rejects.toMatchObject({ data: { code: 'unauthenticated' } });
    nobody.api.cookies.set('accessToken', 'forged.token.value');
    await expect(nobody.connect()).rejects.toMatchObject({ data: { code: 'unauthenticated' } });
  });

  it('holds at most 8 video sockets of one user at once; the next is refused with a reason until one closes', async () => {
    const cleo = await videoUser(setup.app.base, { firstName: 'Cleo' });
    // Opened all at once, as a script would: the count holds however the handshakes interleave.
    const attempts = await Promise.allSettled(Array.from({ length: 12 }, () => cleo.connect()));
    const sockets = attempts.flatMap((a) => (a.status === 'fulfilled' ? [a.value] : []));
    open.push(...sockets);
    expect(sockets).toHaveLength(8);
    for (const refused of attempts.filter((a) => a.status === 'rejected'))
      expect(refused.reason).toMatchObject({
        data: {
          code: 'rate-limited',
          reason: 'Serendip is open in too many tabs or windows. Close some, then try again.',
        },
      });
    // Someone else is not held back by Cleo's pages.
    open.push(await (await videoUser(setup.app.base)).connect());
    // One page closes: another may open.
    sockets[0]!.close();
    await vi.waitFor(async () => open.push(await cleo.connect()), { timeout: 3_000, interval: 50 });
    await expect(cleo.connect()).rejects.toMatchObject({ data: { code: 'rate-limited' } });
  });

  it("pairs two users and shows each the other's public profile only, from the server's record", async () => {
    const { ada, bob, adaMatch, bobMatch } = await pair();
    // Bob is named by an id of this match only (partner-ids.e2e.spec.ts), never by his user id.
    expect(adaMatch.partnerUser).toEqual({
      _id: adaMatch.partnerId,
      socketId: adaMatch.partnerId,
      firstName: 'Bob',
      userAge: bob.user.userAge,
      gender: 'male',
      country: null,
      avatar: null,
      isAdmin: false,
      deviceType: 'mobile',
    });
    expect(JSON.stringify(adaMatch)).not.toContain('Lovelace');
    expect(bobMatch.matchId).toBe(adaMatch.matchId);
    expect([adaMatch.role, bobMatch.role].sort()).toEqual(['answerer', 'offerer']);
    // spec 4: the lower socket id offers.
    expect(adaMatch.role).toBe(ada.socket.id! < bob.socket.id! ? 'offerer' : 'answerer');
    await vi.waitFor(async () => {
      const paired = await setup.app.db
        .selectFrom('events')
        .select('data')
        .where('type', '=', 'MatchPaired')
        .where('stream_id', '=', `matching-match-${adaMatch.matchId}`)
        .executeTakeFirst();
      expect(paired).toBeDefined();
    }, 10_000);
  });

  it('relays signaling and chat to the partner only, and drops a relay aimed at anyone else', async () => {
    const { ada, bob, adaMatch, bobMatch } = await pair();
    const eve = await connected({ firstName: 'Eve' });

    const offer = nextEvent(ada.socket, 'offer');
    await bob.socket.emitWithAck('offer', {
      target: bobMatch.partnerId,
      description: { type: 'offer', sdp: 'v=0 bob' },
    });
    expect(await offer).toEqual({ from: adaMatch.partnerId, description: { type: 'offer', sdp: 'v=0 bob' } });

    const chat = nextEvent(bob.socket, 'chatMessage');
    await ada.socket.emitWithAck('sendChatMessage', { target: adaMatch.partnerId, message: 'Hello Bob!' });
    expect(await chat).toMatchObject({ from: bobMatch.partnerId, message: 'Hello Bob!' });

    // Bob names Eve as the target: she gets nothing, and Bob hears why.
    const eveHears = eventsWithin(eve.socket, 'chatMessage', 800);
    const refused = nextEvent(bob.socket, 'videoError');
    expect(await bob.socket.emitWithAck('sendChatMessage', { target: eve.user._id, message: 'psst' })).toEqual({
      error: { reason: 'You are not in a call with that person.' },
    });
    expect(await refused).toEqual({ code: 'not-in-call', reason: 'You are not in a call with that person.' });
    expect(await eveHears).toEqual([]);
  });

  it('refuses bad input with a reason and changes nothing', async () => {
    const ada = await connected();
    const invalid = [
      { filters: { ...ANYONE, ageRange: [40, 30] }, deviceType: 'desktop' },
      { filters: { ...ANYONE, ageRange: [17, 30] }, deviceType: 'desktop' },
      { filters: { ...ANYONE, country: 'Germany' }, deviceType: 'desktop' },
      { filters: ANYONE },
      'start please',
    ];
    for (const body of invalid) {
      const answer = (await ada.socket.emitWithAck('startMatching', body as never)) as { error?: { reason: string } };
      expect(answer.error?.reason, JSON.stringify(body)).toBeTruthy();
    }
    expect(
      ((await ada.socket.emitWithAck('startMatching', invalid[0] as never)) as { error: { reason: string } }).error,
    ).toEqual({ reason: 'filters.ageRange: the minimum age must not exceed the maximum' });
    const tooLong = await ada.socket.emitWithAck('sendChatMessage', { target: 'x', message: 'a'.repeat(1001) });
    expect(tooLong).toEqual({ error: { reason: 'message: a message has at most 1000 characters' } });
    for (const [event, body] of [
      ['leaveVideoRoom', { next: 'yes' }],
      ['leaveVideoRoom', null],
      ['rtc-connected', { target: 42 }],
    ] as const) {
      const answer = (await ada.socket.emitWithAck(event as 'leaveVideoRoom', body as never)) as { error?: unknown };
      expect(answer.error, `${event} ${JSON.stringify(body)}`).toMatchObject({ reason: expect.any(String) });
    }
    // Nothing was queued: a newcomer who would accept her is not paired with her.
    const bob = await connected({ gender: 'male' });
    const bobFound = eventsWithin(bob.socket, 'matchFound', 800);
    await bob.socket.emitWithAck('startMatching', { filters: ANYONE, deviceType: 'desktop' });
    expect(await bobFound).toEqual([]);
    await bob.socket.emitWithAck('leaveVideoRoom', { next: false });
  });

  it('pairs two who share an interest before a stranger who waits too, shows both the shared one, refuses bad ones', async () => {
    const ada = await connected({ firstName: 'Ada', gender: 'female' });
    const carl = await connected({ firstName: 'Carl', gender: 'male' });
    const bob = await connected({ firstName: 'Bob', gender: 'male' });
    for (const interests of [['a', 'b', 'c', 'd', 'e', 'f'], ['x'.repeat(25)], ['c++'], ['  ']]) {
      const answer = (await ada.socket.emitWithAck('startMatching', {
        filters: { ...ANYONE, interests },
        deviceType: 'desktop',
      })) as { error?: { reason: string } };
      expect(answer.error?.reason, JSON.stringify(interests)).toMatch(/^filters\.interests/);
    }
    expect(
      await ada.socket.emitWithAck('startMatching', {
        filters: { ...ANYONE, interests: ['a', 'b', 'c', 'd', 'e', 'f'] },
        deviceType: 'desktop',
      }),
    ).toEqual({ error: { reason: 'filters.interests: at most 5 interests' } });

    const adaFound = nextEvent(ada.socket, 'matchFound');
    const bobFound = nextEvent(bob.socket, 'matchFound');
    const carlHears = eventsWithin(carl.socket, 'matchFound', 1_000);
    await ada.socket.emitWithAck('startMatching', {
      filters: { ...ANYONE, interests: [' Jazz ', 'chess'] },
      deviceType: 'desktop',
    });
    await carl.socket.emitWithAck('startMatching', { filters: ANYONE, deviceType: 'desktop' });
    await bob.socket.emitWithAck('startMatching', {
      filters: { ...ANYONE, interests: ['jazz'] },
      deviceType: 'mobile',
    });
    expect((await adaFound).sharedInterests).toEqual(['jazz']);
    expect((await bobFound).sharedInterests).toEqual(['jazz']);
    expect(await carlHears).toEqual([]);
  });

  it('takes report:opened from a party naming its partner, moves nothing without an SFU, and rate-limits it', async () => {
    const { ada, bob, adaMatch, bobMatch } = await pair();
    const eve = await connected({ firstName: 'Eve' });
    const moved = [eventsWithin(ada.socket, 'media:path', 800), eventsWithin(bob.socket, 'media:path', 800)];
    // No SFU here (p2p mode): the Report dialog opens all the same, and the call goes on as it was.
    expect(await bob.socket.emitWithAck('report:opened', { target: bobMatch.partnerId })).toEqual({ ok: true });
    for (const seen of moved) expect(await seen).toEqual([]);

    const notInCall = { error: { reason: 'You are not in a call with that person.' } };
    expect(await bob.socket.emitWithAck('report:opened', { target: adaMatch.partnerId })).toEqual(notInCall);
    expect(await eve.socket.emitWithAck('report:opened', { target: bobMatch.partnerId })).toEqual(notInCall);
    expect(await bob.socket.emitWithAck('report:opened', { target: 42 } as never)).toMatchObject({
      error: { reason: expect.stringContaining('target') },
    });

    // Like every event: a flood is cut off, and the client hears why.
    const limited = nextEvent(ada.socket, 'videoError');
    const answers = await Promise.all(
      Array.from({ length: 210 }, () => ada.socket.emitWithAck('report:opened', { target: adaMatch.partnerId })),
    );
    expect(answers.filter((a) => 'ok' in a).length).toBeLessThanOrEqual(200);
    expect(answers).toContainEqual({ error: { reason: 'Too many messages; slow down a little.' } });
    expect(await limited).toEqual({ code: 'rate-limited', reason: 'Too many messages; slow down a little.' });
  });

  it('ends the call on a skip, tells the partner, and does not pair the two again', async () => {
    const { ada, bob } = await pair();
    const told = nextEvent(ada.socket, 'partnerDisconnected');
    await bob.socket.emitWithAck('leaveVideoRoom', { next: true });
    expect(await told).toMatchObject({ reason: 'skip' });

    const adaAgain = eventsWithin(ada.socket, 'matchFound', 800);
    await ada.socket.emitWithAck('startMatching', { filters: ANYONE, deviceType: 'desktop' });
    await bob.socket.emitWithAck('startMatching', { filters: ANYONE, deviceType: 'desktop' });
    expect(await adaAgain).toEqual([]);

    const cleo = await connected({ firstName: 'Cleo' });
    const cleoFound = nextEvent(cleo.socket, 'matchFound');
    await cleo.socket.emitWithAck('startMatching', { filters: ANYONE, deviceType: 'desktop' });
    expect(['Ada', 'Bob']).toContain((await cleoFound).partnerUser.firstName);
    await ada.socket.emitWithAck('leaveVideoRoom', { next: false });
    await bob.socket.emitWithAck('leaveVideoRoom', { next: false });
  });

  it('keeps the call when a socket blips and comes back within the grace period', async () => {
    const { ada, bob, adaMatch, bobMatch } = await pair();
    const bobTold = eventsWithin(bob.socket, 'partnerDisconnected', 2_500);
    ada.socket.close();
    await new Promise((r) => setTimeout(r, 500));
    let resumedEvent: Promise<MatchFound> | undefined;
    const back = await openVideoSocket(setup.app.base, ada.api, { matchId: adaMatch.matchId }, (socket) => {
      resumedEvent = nextEvent(socket, 'matchResumed');
    });
    open.push(back);
    const resumed = await resumedEvent!;
    expect(resumed).toMatchObject({ matchId: adaMatch.matchId, partnerId: adaMatch.partnerId, role: adaMatch.role });

    const chat = nextEvent(back, 'chatMessage');
    await bob.socket.emitWithAck('sendChatMessage', { target: bobMatch.partnerId, message: 'Still there?' });
    expect(await chat).toMatchObject({ message: 'Still there?' });
    expect(await bobTold).toEqual([]);
  });

  it('lets a newer tab take over matching from an older one', async () => {
    const ada = await connected();
    const second = await ada.connect();
    open.push(second);
    await ada.socket.emitWithAck('startMatching', { filters: ANYONE, deviceType: 'desktop' });
    const replaced = nextEvent(ada.socket, 'videoError');
    await second.emitWithAck('startMatching', { filters: ANYONE, deviceType: 'desktop' });
    expect(await replaced).toEqual({ code: 'replaced', reason: 'Matching went on in another tab or window.' });
    await second.emitWithAck('leaveVideoRoom', { next: false });
  });

  it("repeats a retried request once with its Idempotency-Key, and another user's same key is not theirs", async () => {
    const { ada, bob, adaMatch } = await pair();
    await bob.socket.emitWithAck('leaveVideoRoom', { next: false });
    const feedback = { matchId: adaMatch.matchId, rating: 4, additionalInformation: '', type: 'videomatch' };
    const key = { 'Idempotency-Key': `retry-${randomUUID()}` };

    expect((await ada.api.call('POST', '/user/submit-feedback', feedback, key)).status).toBe(201);
    // The same request again (a retry after a lost answer): the same answer, nothing recorded twice.
    expect((await ada.api.call('POST', '/user/submit-feedback', feedback, key)).status).toBe(201);
    // Someone outside the call who sends the same key is still refused.
    const eve = await videoUser(setup.app.base);
    expect((await eve.api.call('POST', '/user/submit-feedback', feedback, key)).status).toBe(404);
    const given = (await setup.app.core.store.readStream(matchStream(adaMatch.matchId))).filter(
      (e) => e.type === 'FeedbackGiven',
    );
    expect(given).toHaveLength(1);
  });

  it('refuses the next start of a socket whose session ended even when no push reached it', async () => {
    const ada = await connected();
    // The session ends behind the push's back (as if its message were lost on the bus).
    await setup.app.db
      .updateTable('auth_sessions')
      .set({ ended_at: new Date() })
      .where('user_id', '=', ada.user._id)
      .execute();
    const told = nextEvent(ada.socket, 'videoError');
    const closed = new Promise<void>((resolve) => ada.socket.once('disconnect', () => resolve()));
    void ada.socket.emit('startMatching', { filters: ANYONE, deviceType: 'desktop' });
    expect(await told).toEqual({ code: 'unauthenticated', reason: 'Session Expired, Please Log In.' });
    await closed;
  });

  it('takes one feedback per user per call, from its two users only', async () => {
    const { ada, bob, adaMatch } = await pair();
    await bob.socket.emitWithAck('leaveVideoRoom', { next: false });
    const feedback = { matchId: adaMatch.matchId, rating: 5, additionalInformation: 'Lovely chat', type: 'videomatch' };

    expect((await ada.api.call('POST', '/user/submit-feedback', feedback)).status).toBe(201);
    const again = await ada.api.call('POST', '/user/submit-feedback', feedback);
    expect(again.status).toBe(400);
    expect(again.body.message).toEqual(['You already gave feedback on this call']);
    const eve = await videoUser(setup.app.base);
    expect((await eve.api.call('POST', '/user/submit-feedback', feedback)).status).toBe(404);
    const bad = await bob.api.call('POST', '/user/submit-feedback', { ...feedback, rating: 6, submittedBy: 'x' });
    expect(bad.status).toBe(400);
    expect(bad.body.message).toEqual(
      expect.arrayContaining(['property submittedBy should not exist', 'rating must be a whole number from 1 to 5']),
    );
    expect((await bob.api.call('POST', '/user/submit-feedback', { ...feedback, matchId: randomUUID() })).status).toBe(
      404,
    );
    await vi.waitFor(async () => {
      const rows = await setup.app.db
        .selectFrom('match_feedback')
        .selectAll()
        .where('match_id', '=', adaMatch.matchId)
        .execute();
      expect(rows).toMatchObject([{ user_id: ada.user._id, rating: 5 }]);
    }, 10_000);
    // The free text is sealed in the log like any personal field.
    const events = await setup.app.db.selectFrom('events').select('data').where('type', '=', 'FeedbackGiven').execute();
    expect(JSON.stringify(events)).not.toContain('Lovely chat');
  });
});
