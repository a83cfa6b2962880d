import { describe, expect, it } from 'vitest';
import { ANYONE, eventsWithin, nextEvent, videoUser, videoTestApp } from '../../test-support/video-users.js';

const CONFIRM_FIRST = 'Confirm your e-mail address to start matching.';

describe('Matching requires a confirmed e-mail address', () => {
  const setup = videoTestApp();
  const { open } = setup;

  it('refuses start to an account that never confirmed its address, saying why, and pairs it with nobody', async () => {
    const bob = await videoUser(setup.app.base, { firstName: 'Bob', gender: 'male' });
    const bobSocket = await bob.connect();
    open.push(bobSocket);
    await bobSocket.emitWithAck('startMatching', { filters: ANYONE, deviceType: 'desktop' });

    // A finished sign-up with someone else's address, or a made-up one: the link was never followed.
    const mallory = await videoUser(setup.app.base, { firstName: 'Mallory', confirmed: false });
    expect(mallory.user.emailVerified).toBe(false);
    const socket = await mallory.connect();
    open.push(socket);
    const bobFound = eventsWithin(bobSocket, 'matchFound', 1_500);
    const malloryFound = eventsWithin(socket, 'matchFound', 1_500);
    const told = nextEvent(socket, 'videoError');
    expect(await socket.emitWithAck('startMatching', { filters: ANYONE, deviceType: 'desktop' })).toEqual({
      error: { reason: CONFIRM_FIRST },
    });
    expect(await told).toEqual({ code: 'email-unconfirmed', reason: CONFIRM_FIRST });
    expect(await bobFound).toEqual([]);
    expect(await malloryFound).toEqual([]);

    // Once the link is followed, the same socket may start, and is paired with the one who waited.
    await mallory.confirmEmail();
    const paired = nextEvent(bobSocket, 'matchFound');
    expect(await socket.emitWithAck('startMatching', { filters: ANYONE, deviceType: 'desktop' })).toEqual({
      status: 'searching',
    });
    expect((await paired).partnerUser.firstName).toBe('Mallory');
  });
});
