import type { ApiClient } from '../../test-support/api-client.js';
import type { OnlineCountPush, OnlineUsersPush } from '@serendip/proto';
import { io } from 'socket.io-client';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { signedInAdmin, signedInModerator } from '../../test-support/admins.js';
import { eventually } from '../../test-support/eventually.js';
import { type SystemClient, videoTestApp, videoUser } from '../../test-support/video-users.js';
import { TOO_MANY_PAGES } from '../../platform/realtime/socket-quota.js';
import { AWAY_TOO_OFTEN, NOT_YOUR_USER_ID } from './system.gateway.js';

type Heard = { counts: number[]; lists: OnlineUsersPush['users'][] };
const recorders = new WeakMap<SystemClient, Heard>();

/**
 * A system socket as the page opens it (spec 7): the query names the user and the device. What it hears is recorded
 * from the start (`heard`): a push may come in the same read as the connection's acceptance.
 */
function openWithQuery(base: string, api: ApiClient | undefined, query: Record<string, string>): Promise<SystemClient> {
  const socket: SystemClient = io(base, {
    transports: ['websocket'],
    reconnection: false,
    forceNew: true,
    query,
    ...(api ? { extraHeaders: { Cookie: api.cookieHeader() } } : {}),
  });
  const heard: Heard = { counts: [], lists: [] };
  socket.on('onlineCount', (push: OnlineCountPush) => heard.counts.push(push.count));
  socket.on('onlineUsers', (push: OnlineUsersPush) => heard.lists.push(push.users));
  recorders.set(socket, heard);
  return new Promise((resolve, reject) => {
    socket.once('connect', () => resolve(socket));
    socket.once('connect_error', (error) => {
      socket.close();
      reject(error);
    });
  });
}

/** Every onlineCount and onlineUsers push a socket has heard since it opened. */
const heard = (socket: SystemClient): Heard => recorders.get(socket)!;

describe('System socket: the handshake query and presence (spec 4 "Presence", spec 7)', () => {
  const setup = videoTestApp();
  const sockets: SystemClient[] = [];
  const open = async (...args: Parameters<typeof openWithQuery>) => {
    const socket = await openWithQuery(...args);
    sockets.push(socket);
    return socket;
  };
  afterEach(() => {
    for (const socket of sockets.splice(0)) socket.close();
  });

  it("holds at most 32 of a signed-in user's system sockets; the next is refused with a reason, guests are not held back", async () => {
    const { base } = setup.app;
    const ada = await videoUser(base, { firstName: 'Ada' });
    const attempts = await Promise.allSettled(
      Array.from({ length: 36 }, () => open(base, ada.api, { userId: ada.user._id, device: 'desktop' })),
    );
    expect(attempts.filter((a) => a.status === 'fulfilled')).toHaveLength(32);
    for (const refused of attempts.filter((a) => a.status === 'rejected'))
      expect(refused.reason).toMatchObject({ data: { reason: TOO_MANY_PAGES } });
    // Guests only ping: they are not counted.
    for (let i = 0; i < 3; i++) await open(base, undefined, { device: 'desktop' });
    // A page closes: another may open.
    sockets[0]!.close();
    await vi.waitFor(() => open(base, ada.api, { userId: ada.user._id, device: 'desktop' }), {
      timeout: 3_000,
      interval: 50,
    });
  });

  it("refuses a query userId that is not the session's, and a malformed query, saying why; a guest still pings", async () => {
    const { base } = setup.app;
    const ada = await videoUser(base, { firstName: 'Ada' });
    const bob = await videoUser(base, { firstName: 'Bob' });
    await expect(openWithQuery(base, ada.api, { userId: bob.user._id, device: 'desktop' })).rejects.toMatchObject({
      message: NOT_YOUR_USER_ID,
      data: { reason: NOT_YOUR_USER_ID },
    });
    await expect(openWithQuery(base, ada.api, { userId: ada.user._id, device: 'tablet' })).rejects.toMatchObject({
      data: { reason: expect.stringContaining('device') },
    });
    // Her own id and device: in.
    const own = await open(base, ada.api, { userId: ada.user._id, device: 'mobile' });
    expect(own.connected).toBe(true);
    // No session: a guest, whatever the query says; it can ping and hears nothing of anyone.
    const guest = await open(base, undefined, { userId: bob.user._id });
    const guestHeard = heard(guest);
    const pong = await guest.timeout(2_000).emitWithAck('ping', { sentAt: 1 });
    expect(pong).toMatchObject({ sentAt: 1 });
    guest.emit('away');
    await new Promise((r) => setTimeout(r, 2_500));
    expect(guestHeard).toEqual({ counts: [], lists: [] });
  });

  it('users hear only how many are online; admins hear who, with device and away or online; junk and floods are answered, never fatal', async () => {
    const test = setup.app;
    const { admin, adminId } = await signedInAdmin(test);
    const { moderator } = await signedInModerator(test);
    const cleo = await videoUser(test.base, { firstName: 'Cleo' });
    const dan = await videoUser(test.base, { firstName: 'Dan', gender: 'male' });

    const adminSocket = await open(test.base, admin, { userId: adminId, device: 'desktop' });
    const adminHeard = heard(adminSocket);
    const moderatorSocket = await open(test.base, moderator, {});
    const moderatorHeard = heard(moderatorSocket);
    const cleoSocket = await open(test.base, cleo.api, { userId: cleo.user._id, device: 'desktop' });
    const cleoHeard = heard(cleoSocket);
    // Dan on his phone, in two tabs.
    const danTab = await open(test.base, dan.api, { userId: dan.user._id, device: 'mobile' });
    const danOtherTab = await open(test.base, dan.api, { userId: dan.user._id, device: 'mobile' });

    // Four people online (the admin, the moderator, Cleo, Dan once however many tabs).
    await eventually(
      () => cleoHeard.counts.at(-1) === 4,
      8_000,
      () => `Cleo heard ${JSON.stringify(cleoHeard.counts)}`,
    );
    const danOf = (list: OnlineUsersPush['users'] | undefined) => list?.find((u) => u.userId === dan.user._id);
    await eventually(
      () => danOf(adminHeard.lists.at(-1))?.status === 'online',
      8_000,
      () => `the admin heard ${JSON.stringify(adminHeard.lists.at(-1))}`,
    );
    expect(adminHeard.lists.at(-1)).toHaveLength(4);
    expect(danOf(adminHeard.lists.at(-1))).toEqual({
      userId: dan.user._id,
      firstName: 'Dan',
      device: 'mobile',
      status: 'online',
    });
    // Nothing in the list says more than the contract: no surname, no e-mail.
    expect(JSON.stringify(adminHeard.lists)).not.toContain('Lovelace');

    // One of Dan's tabs hides: he is still online (the other is in sight). Both hide: away.
    danTab.emit('away');
    await new Promise((r) => setTimeout(r, 2_500));
    expect(danOf(adminHeard.lists.at(-1))?.status).toBe('online');
    danOtherTab.emit('away');
    await eventually(
      () => danOf(adminHeard.lists.at(-1))?.status === 'away',
      6_000,
      () => `the admin heard ${JSON.stringify(adminHeard.lists.at(-1))}`,
    );
    // Away is still online as far as the number goes.
    expect(cleoHeard.counts.at(-1)).toBe(4);
    danTab.emit('back');
    await eventually(
      () => danOf(adminHeard.lists.at(-1))?.status === 'online',
      6_000,
      () => `the admin heard ${JSON.stringify(adminHeard.lists.at(-1))}`,
    );

    // Junk with the events, and a flood: the flood is answered with a reason, and the socket lives on.
    const raw = danTab as unknown as { emit(event: string, ...args: unknown[]): void };
    raw.emit('away', { junk: true }, 'more', 42);
    raw.emit('back', null);
    for (let i = 0; i < 30; i++) raw.emit(i % 2 ? 'back' : 'away');
    const answer = (await (danTab as unknown as { timeout(ms: number): { emitWithAck(e: string): Promise<unknown> } })
      .timeout(2_000)
      .emitWithAck('away')) as unknown;
    expect(answer).toEqual({ error: { reason: AWAY_TOO_OFTEN } });
    expect(await danTab.timeout(2_000).emitWithAck('ping', { sentAt: 2 })).toMatchObject({ sentAt: 2 });

    // Both of Dan's tabs close: three online, and he leaves the admin's list.
    danTab.close();
    danOtherTab.close();
    await eventually(
      () => cleoHeard.counts.at(-1) === 3 && danOf(adminHeard.lists.at(-1)) === undefined,
      8_000,
      () => `Cleo heard ${JSON.stringify(cleoHeard.counts)}; the admin ${JSON.stringify(adminHeard.lists.at(-1))}`,
    );

    // A user, and a moderator, never hear the list; each hears the number.
    expect(cleoHeard.lists).toEqual([]);
    expect(moderatorHeard.lists).toEqual([]);
    expect(moderatorHeard.counts.at(-1)).toBe(3);
    expect(adminHeard.counts.at(-1)).toBe(3);

    // A page opened now hears the figures when it registers, though nothing changes (Cleo is online already): with
    // pushes only on change, it would otherwise hear none at all.
    const late = await open(test.base, cleo.api, { userId: cleo.user._id, device: 'desktop' });
    const lateHeard = heard(late);
    await eventually(
      () => lateHeard.counts.length > 0,
      3_000,
      () => 'the new page heard no count',
    );
    expect(lateHeard.counts[0]).toBe(3);
  }, 60_000);
});
