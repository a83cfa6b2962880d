import { randomUUID } from 'node:crypto';
import type { UserBannedEvent } from '@serendip/proto';
import { describe, expect, it } from 'vitest';
import { eventSubject } from '../../platform/messaging/subjects.js';
import { ANYONE, eventsWithin, nextEvent, videoTestApp, videoUser } from '../../test-support/video-users.js';
import { matchStream } from '../domain/match.events.js';

/** spec 3 "Ban": a ban ends the banned user's search or call at once, whichever node holds their sockets. */
describe('a ban, live on the video socket', () => {
  const setup = videoTestApp();
  const { open } = setup;
  const start = { filters: ANYONE, deviceType: 'desktop' } as const;

  async function connected(firstName: string, gender: 'male' | 'female' = 'female') {
    const person = await videoUser(setup.app.base, { firstName, gender });
    const socket = await person.connect();
    open.push(socket);
    return { ...person, socket };
  }

  /** What moderation publishes when it bans someone (proto events/moderation.ts). */
  async function ban(userId: string) {
    const event: UserBannedEvent = {
      id: randomUUID(),
      context: 'moderation',
      type: 'UserBanned',
      occurredAt: new Date().toISOString(),
      data: { userId, caseId: randomUUID(), expiresAt: null },
    };
    await setup.app.core.bus.publish({ subject: eventSubject('moderation', 'UserBanned'), id: event.id, data: event });
  }

  const closed = (socket: { once(event: 'disconnect', listener: () => void): unknown }) =>
    new Promise<void>((resolve) => socket.once('disconnect', () => resolve()));

  it("ends the banned user's call: they hear why and every socket of theirs closes; the partner hears 'ban'", async () => {
    const ada = await connected('Ada');
    const bob = await connected('Bob', 'male');
    const bobOtherTab = await bob.connect();
    open.push(bobOtherTab);
    const adaFound = nextEvent(ada.socket, 'matchFound');
    await ada.socket.emitWithAck('startMatching', start);
    await bob.socket.emitWithAck('startMatching', start);
    const { matchId } = await adaFound;

    const bobTold = [nextEvent(bob.socket, 'videoError'), nextEvent(bobOtherTab, 'videoError')];
    const bobClosed = [closed(bob.socket), closed(bobOtherTab)];
    const adaTold = nextEvent(ada.socket, 'partnerDisconnected');
    await ban(bob.user._id);

    for (const told of bobTold) expect(await told).toEqual({ code: 'banned', reason: 'Your account is restricted.' });
    await Promise.all(bobClosed);
    expect(await adaTold).toEqual({ matchId, reason: 'ban' });
    await expect
      .poll(async () =>
        (await setup.app.core.store.readStream(matchStream(matchId)))
          .filter((e) => e.type === 'MatchEnded')
          .map((e) => e.data),
      )
      .toEqual([expect.objectContaining({ endedBy: bob.user._id, reason: 'ban' })]);

    // The partner searches on, as after anyone leaving, and meets someone else.
    const cleo = await connected('Cleo');
    const adaNext = nextEvent(ada.socket, 'matchFound');
    await ada.socket.emitWithAck('startMatching', start);
    await cleo.socket.emitWithAck('startMatching', start);
    expect((await adaNext).partnerUser.firstName).toBe('Cleo');
  });

  it("ends the banned user's search, and leaves everyone else's alone", async () => {
    const dan = await connected('Dan', 'male');
    const eve = await connected('Eve');
    await dan.socket.emitWithAck('startMatching', start);
    const danTold = nextEvent(dan.socket, 'videoError');
    const danClosed = closed(dan.socket);
    const eveHears = eventsWithin(eve.socket, 'videoError', 800);
    await ban(dan.user._id);
    expect(await danTold).toEqual({ code: 'banned', reason: 'Your account is restricted.' });
    await danClosed;
    expect(await eveHears).toEqual([]);

    // Dan is out of the queue: Eve waits for someone else.
    const eveFound = eventsWithin(eve.socket, 'matchFound', 800);
    await eve.socket.emitWithAck('startMatching', start);
    expect(await eveFound).toEqual([]);
    expect(eve.socket.connected).toBe(true);
  });

  it('drops a UserBanned that does not fit its contract, closing nobody', async () => {
    const fay = await connected('Fay');
    const fayHears = eventsWithin(fay.socket, 'videoError', 800);
    await setup.app.core.bus.publish({
      subject: eventSubject('moderation', 'UserBanned'),
      id: randomUUID(),
      data: { id: randomUUID(), context: 'moderation', type: 'UserBanned', data: { user: fay.user._id } },
    });
    expect(await fayHears).toEqual([]);
    expect(fay.socket.connected).toBe(true);
  });
});
