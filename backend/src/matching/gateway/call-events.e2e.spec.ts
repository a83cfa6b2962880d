import type { MatchFound } from '@serendip/proto';
import { describe, expect, it } from 'vitest';
import {
  ANYONE,
  eventsWithin,
  nextEvent,
  openVideoSocket,
  videoTestApp,
  videoUser,
} from '../../test-support/video-users.js';

/** What each side of a call is told as it happens: the partner typing, their connection dropping and coming back. */
describe('call events on the video socket', () => {
  const setup = videoTestApp();
  const { open } = setup;

  async function connected(profile: Parameters<typeof videoUser>[1] = {}) {
    const person = await videoUser(setup.app.base, profile);
    const socket = await person.connect();
    open.push(socket);
    return { ...person, socket };
  }

  async function pair() {
    const ada = await connected({ firstName: 'Ada', gender: 'female' });
    const bob = await connected({ firstName: 'Bob', gender: 'male' });
    const adaFound = nextEvent(ada.socket, 'matchFound');
    const bobFound = nextEvent(bob.socket, 'matchFound');
    await ada.socket.emitWithAck('startMatching', { filters: ANYONE, deviceType: 'desktop' });
    await bob.socket.emitWithAck('startMatching', { filters: ANYONE, deviceType: 'desktop' });
    return { ada, bob, adaMatch: await adaFound, bobMatch: await bobFound };
  }

  it('relays typing to the partner only, per-socket rate-limited, and refuses a bad payload with a reason', async () => {
    const { ada, bob, adaMatch, bobMatch } = await pair();
    const eve = await connected({ firstName: 'Eve' });
    const eveHears = eventsWithin(eve.socket, 'typing', 1_000);

    const typing = nextEvent(bob.socket, 'typing');
    expect(await ada.socket.emitWithAck('typing', { target: adaMatch.partnerId })).toEqual({ ok: true });
    // Bob learns only that his partner types, under her per-match id.
    expect(await typing).toEqual({ from: bobMatch.partnerId });

    // Naming anyone else reaches nobody.
    expect(await ada.socket.emitWithAck('typing', { target: eve.user._id })).toEqual({
      error: { reason: 'You are not in a call with that person.' },
    });
    const refused = nextEvent(bob.socket, 'videoError');
    expect(await bob.socket.emitWithAck('typing', { target: 42 } as never)).toMatchObject({
      error: { reason: expect.stringContaining('target') },
    });
    expect(await refused).toMatchObject({ code: 'invalid', reason: expect.stringContaining('target') });

    // A client types at most every 2 s; one that floods is cut off, and its partner hears only the first few.
    const bobHears = eventsWithin(bob.socket, 'typing', 1_000);
    const answers = await Promise.all(
      Array.from({ length: 10 }, () => ada.socket.emitWithAck('typing', { target: adaMatch.partnerId })),
    );
    const relayed = answers.filter((a) => 'ok' in a).length;
    expect(relayed).toBeLessThan(4);
    expect(answers).toContainEqual({ error: { reason: 'Too many messages; slow down a little.' } });
    expect((await bobHears).length).toBe(relayed);
    expect(await eveHears).toEqual([]);
  });

  it("tells the partner while a side's socket is away within the grace period, and when it is back", async () => {
    const { ada, bob, adaMatch } = await pair();
    const reconnecting = nextEvent(bob.socket, 'partnerReconnecting');
    ada.socket.close();
    expect(await reconnecting).toEqual({ matchId: adaMatch.matchId });

    const reconnected = nextEvent(bob.socket, 'partnerReconnected');
    const bobTold = eventsWithin(bob.socket, 'partnerDisconnected', 1_500);
    let resumed: Promise<MatchFound> | undefined;
    const back = await openVideoSocket(setup.app.base, ada.api, { matchId: adaMatch.matchId }, (socket) => {
      resumed = nextEvent(socket, 'matchResumed');
    });
    open.push(back);
    expect(await resumed!).toMatchObject({ matchId: adaMatch.matchId });
    expect(await reconnected).toEqual({ matchId: adaMatch.matchId });
    expect(await bobTold).toEqual([]);
  });
  /** A socket of `person` opened with `auth`, listening for `event` from before it is up (it may come at once). */
  async function reopened<E extends 'matchResumed' | 'videoError' | 'partnerDisconnected'>(
    person: { api: Parameters<typeof openVideoSocket>[1] },
    auth: Record<string, unknown>,
    event: E,
  ) {
    let heard: ReturnType<typeof nextEvent<E>> | undefined;
    const socket = await openVideoSocket(setup.app.base, person.api, auth, (s) => {
      heard = nextEvent(s, event);
    });
    open.push(socket);
    return { socket, heard: await heard! };
  }

  it('resumes a call on a new page (a reload): the partner hears the media restart and offers the new connection', async () => {
    const paired = await pair();
    // The offerer reloads: after it, the side that stayed offers instead.
    const [leaver, stayer] =
      paired.adaMatch.role === 'offerer'
        ? [
            { ...paired.ada, match: paired.adaMatch },
            { ...paired.bob, match: paired.bobMatch },
          ]
        : [
            { ...paired.bob, match: paired.bobMatch },
            { ...paired.ada, match: paired.adaMatch },
          ];
    const reconnecting = nextEvent(stayer.socket, 'partnerReconnecting');
    leaver.socket.close();
    await reconnecting;

    const reconnected = nextEvent(stayer.socket, 'partnerReconnected');
    const stayerTold = eventsWithin(stayer.socket, 'partnerDisconnected', 1_500);
    const back = await reopened(leaver, { matchId: leaver.match.matchId, fresh: true }, 'matchResumed');
    expect(back.heard).toMatchObject({
      matchId: leaver.match.matchId,
      partnerId: leaver.match.partnerId,
      role: 'answerer',
    });
    expect(await reconnected).toEqual({ matchId: leaver.match.matchId, mediaRestart: true });

    // The stayer's new offer reaches the new page.
    const offer = nextEvent(back.socket, 'offer');
    const description = { type: 'offer' as const, sdp: 'v=0' };
    expect(await stayer.socket.emitWithAck('offer', { target: stayer.match.partnerId, description })).toEqual({
      ok: true,
    });
    expect(await offer).toEqual({ from: leaver.match.partnerId, description });
    expect(await stayerTold).toEqual([]);

    // A line the stayer sends again (its partner was away) keeps its id, so the new page shows it once.
    const line = nextEvent(back.socket, 'chatMessage');
    const again = { target: stayer.match.partnerId, message: 'Are you back?', id: 'line-1' };
    expect(await stayer.socket.emitWithAck('sendChatMessage', again)).toEqual({ ok: true });
    expect(await line).toEqual({
      from: leaver.match.partnerId,
      message: 'Are you back?',
      sentAt: expect.any(String),
      id: 'line-1',
    });
    expect(await stayer.socket.emitWithAck('sendChatMessage', { ...again, id: 'x'.repeat(65) })).toMatchObject({
      error: { reason: expect.stringContaining('id') },
    });
  });

  it('a new page that arrives before its old socket is gone takes the call over, and the partner still hears of it', async () => {
    const { ada, bob, adaMatch } = await pair();
    const replaced = nextEvent(ada.socket, 'videoError');
    const reconnected = nextEvent(bob.socket, 'partnerReconnected');
    const back = await reopened(ada, { matchId: adaMatch.matchId, fresh: true }, 'matchResumed');
    expect(back.heard.matchId).toBe(adaMatch.matchId);
    expect(await replaced).toMatchObject({ code: 'replaced' });
    expect(await reconnected).toEqual({ matchId: adaMatch.matchId, mediaRestart: true });
  });

  it("refuses a malformed resume with a reason, and nobody resumes someone else's call", async () => {
    const { ada, bob, adaMatch, bobMatch } = await pair();
    const bobHears = eventsWithin(bob.socket, 'partnerReconnected', 1_500);
    const adaHears = eventsWithin(ada.socket, 'videoError', 1_500);

    const badFresh = await reopened(ada, { matchId: adaMatch.matchId, fresh: 'yes' }, 'videoError');
    expect(badFresh.heard).toMatchObject({ code: 'invalid', reason: expect.stringContaining('fresh') });
    const badId = await reopened(ada, { matchId: 42 }, 'videoError');
    expect(badId.heard).toMatchObject({ code: 'invalid', reason: expect.stringContaining('matchId') });
    // Refused, not closed: that socket may still start matching.
    expect(badId.socket.connected).toBe(true);

    // Eve names Ada's call: it is over as far as she is concerned, and the call goes on untouched.
    const eve = await connected({ firstName: 'Eve' });
    const theirs = await reopened(eve, { matchId: adaMatch.matchId, fresh: true }, 'partnerDisconnected');
    expect(theirs.heard).toEqual({ matchId: adaMatch.matchId, reason: 'disconnect' });
    expect(await bobHears).toEqual([]);
    expect(await adaHears).toEqual([]);
    const typing = nextEvent(bob.socket, 'typing');
    expect(await ada.socket.emitWithAck('typing', { target: adaMatch.partnerId })).toEqual({ ok: true });
    expect(await typing).toEqual({ from: bobMatch.partnerId });
  });
});
