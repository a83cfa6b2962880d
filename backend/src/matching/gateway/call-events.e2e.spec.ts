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
});
