import type { AccountUpdatedPush, SessionEndedPush } from '@serendip/proto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiClient } from './test-support/api-client.js';
import { startTwoNodes, type TwoNodes } from './test-support/two-nodes.js';
import {
  ANYONE,
  nextEvent,
  openSystemSocket,
  openVideoSocket,
  sinkMailbox,
  VIDEO_USER_PASSWORD,
  type VideoClient,
  videoUser,
} from './test-support/video-users.js';

/**
 * Two backend processes on one NATS and one Postgres (DESIGN.md "Processes and roles"): one leads the matchmaker,
 * the other's gateway reaches it over the bus, and two users on different nodes are paired and talk; a session ended
 * on one node closes its sockets on the other (DESIGN.md "Fan-out: NATS").
 */
describe('two backend nodes', () => {
  let cluster: TwoNodes;
  let nodes: TwoNodes['nodes'];
  let sink: TwoNodes['sink'];
  const sockets: VideoClient[] = [];

  beforeAll(async () => {
    cluster = await startTwoNodes();
    ({ nodes, sink } = cluster);
  }, 180_000);

  afterAll(async () => {
    for (const socket of sockets) socket.close();
    await cluster?.stop();
  }, 30_000);

  it('pairs a user on one node with a user on the other, and relays their signaling and chat', async () => {
    const [one, two] = nodes;
    const ada = await videoUser(one.base, { firstName: 'Ada', gender: 'female' }, sinkMailbox(sink));
    const bob = await videoUser(two.base, { firstName: 'Bob', gender: 'male' }, sinkMailbox(sink));
    const adaSocket = await openVideoSocket(one.base, ada.api);
    const bobSocket = await openVideoSocket(two.base, bob.api);
    sockets.push(adaSocket, bobSocket);

    const adaFound = nextEvent(adaSocket, 'matchFound', 10_000);
    const bobFound = nextEvent(bobSocket, 'matchFound', 10_000);
    await adaSocket.emitWithAck('startMatching', { filters: ANYONE, deviceType: 'desktop' });
    await bobSocket.emitWithAck('startMatching', { filters: ANYONE, deviceType: 'desktop' });
    const [adaMatch, bobMatch] = await Promise.all([adaFound, bobFound]);
    expect(adaMatch).toMatchObject({ partnerUser: { firstName: 'Bob' } });
    expect(bobMatch).toMatchObject({ partnerUser: { firstName: 'Ada' }, matchId: adaMatch.matchId });

    // Each names the other by the per-match id it was given, whichever node holds the partner.
    const offer = nextEvent(bobSocket, 'offer');
    const sdp = { type: 'offer', sdp: 'v=0 ada' } as const;
    await adaSocket.emitWithAck('offer', { target: adaMatch.partnerId, description: sdp });
    expect(await offer).toEqual({ from: bobMatch.partnerId, description: sdp });

    const chat = nextEvent(adaSocket, 'chatMessage');
    await bobSocket.emitWithAck('sendChatMessage', { target: bobMatch.partnerId, message: 'Hi from the other node' });
    expect(await chat).toMatchObject({ from: adaMatch.partnerId, message: 'Hi from the other node' });

    const told = nextEvent(bobSocket, 'partnerDisconnected');
    await adaSocket.emitWithAck('leaveVideoRoom', { next: false });
    expect(await told).toEqual({ matchId: adaMatch.matchId, reason: 'leave' });
  }, 60_000);

  /** The same person on another node: a client with the same cookies (the same session). */
  function sameSessionOn(base: string, api: ApiClient): ApiClient {
    const copy = new ApiClient(base);
    for (const [name, value] of api.cookies) copy.cookies.set(name, value);
    return copy;
  }

  async function signIn(base: string, emailAddress: string): Promise<ApiClient> {
    const api = new ApiClient(base);
    const res = await api.call('POST', '/auth/login', { emailAddress, password: VIDEO_USER_PASSWORD });
    expect(res.status).toBe(200);
    return api;
  }

  /**
   * Runs what ends a session, and answers how long after its answer the socket closed, and what it was told first.
   * The server registers a socket a moment after `connect`; a short pause keeps the test about the push, not that.
   */
  async function closedAfter(socket: VideoClient, end: () => Promise<unknown>) {
    await new Promise((r) => setTimeout(r, 300));
    const told = nextEvent(socket, 'videoError', 5_000);
    const closed = new Promise<number>((resolve) => socket.once('disconnect', () => resolve(Date.now())));
    await end();
    const answeredAt = Date.now();
    const [error, closedAt] = await Promise.all([told, closed]);
    const ms = closedAt - answeredAt;
    console.log(`socket on the other node closed ${ms} ms after the session ended`);
    return { error, ms };
  }

  const SESSION_EXPIRED = { code: 'unauthenticated', reason: 'Session Expired, Please Log In.' };

  it('closes a session\'s sockets on the other node within a second of "end this session", and only that session\'s', async () => {
    const [one, two] = nodes;
    const ada = await videoUser(one.base, { firstName: 'Ada' }, sinkMailbox(sink));
    const onTwo = await signIn(two.base, ada.user.emailAddress);
    const doomed = await openVideoSocket(two.base, onTwo);
    const kept = await openVideoSocket(two.base, sameSessionOn(two.base, ada.api));
    sockets.push(doomed, kept);

    const listed = await ada.api.call('GET', '/sessions');
    const other = (listed.body as { _id: string; isCurrent: boolean }[]).find((s) => !s.isCurrent)!;
    const { error, ms } = await closedAfter(doomed, async () => {
      const res = await ada.api.call('POST', '/sessions/delete', { sessionId: other._id });
      expect(res.status).toBe(200);
    });
    expect(error).toEqual(SESSION_EXPIRED);
    expect(ms).toBeLessThan(1_000);
    // The caller's own session goes on, on both nodes.
    expect(kept.connected).toBe(true);
    expect((await kept.emitWithAck('startMatching', { filters: ANYONE, deviceType: 'desktop' })).status).toBe(
      'searching',
    );
    await kept.emitWithAck('leaveVideoRoom', { next: false });
    // And the ended session cannot come back.
    await expect(openVideoSocket(two.base, onTwo)).rejects.toThrow();
  }, 60_000);

  it('closes the video and system sockets on the other node within a second of a logout', async () => {
    const [one, two] = nodes;
    const bob = await videoUser(two.base, { firstName: 'Bob', gender: 'male' }, sinkMailbox(sink));
    const video = await openVideoSocket(two.base, bob.api);
    const system = await openSystemSocket(two.base, bob.api);
    sockets.push(video);
    const pushed = new Promise<SessionEndedPush>((resolve) => system.once('sessionEnded', resolve));
    const systemClosed = new Promise<void>((resolve) => system.once('disconnect', () => resolve()));

    const { error, ms } = await closedAfter(video, async () => {
      const res = await sameSessionOn(one.base, bob.api).call('POST', '/auth/logout');
      expect(res.status).toBe(200);
    });
    const loggedOut = 'You logged out in another tab or window.';
    expect(error).toEqual({ code: 'unauthenticated', reason: loggedOut });
    expect(ms).toBeLessThan(1_000);
    expect(await pushed).toEqual({ eventId: expect.any(String), code: 'logged-out', reason: loggedOut });
    await systemClosed;
  }, 60_000);

  it('tells the system socket on the other node at once when the account’s access changes (two-factor login on)', async () => {
    const [one, two] = nodes;
    const dora = await videoUser(one.base, { firstName: 'Dora' }, sinkMailbox(sink));
    const system = await openSystemSocket(two.base, sameSessionOn(two.base, dora.api));
    const updates: AccountUpdatedPush[] = [];
    system.on('accountUpdated', (push) => updates.push(push));
    try {
      // The socket registers a moment after it connects: turn two-factor on and off until a change is heard.
      for (let tries = 0; updates.length === 0 && tries < 6; tries++) {
        const res =
          tries % 2 === 0
            ? await dora.api.call('POST', '/user/enable-twofac')
            : await dora.api.call('POST', '/user/disable-twofac', { currentPassword: VIDEO_USER_PASSWORD });
        expect(res.status).toBe(200);
        const until = Date.now() + 2_000;
        while (updates.length === 0 && Date.now() < until) await new Promise((r) => setTimeout(r, 20));
      }
      expect(updates[0]).toEqual({ eventId: expect.any(String), userId: dora.user._id });
    } finally {
      system.close();
    }
  }, 60_000);

  it("closes every session's sockets on the other node within a second of a password reset", async () => {
    const [one, two] = nodes;
    const cleo = await videoUser(two.base, { firstName: 'Cleo' }, sinkMailbox(sink));
    const video = await openVideoSocket(two.base, cleo.api);
    sockets.push(video);
    const stranger = new ApiClient(one.base);
    expect((await stranger.call('POST', '/auth/password-reset', { emailAddress: cleo.user.emailAddress })).status).toBe(
      202,
    );
    const mail = await sink.waitFor((m) => m.to.includes(cleo.user.emailAddress) && /Reset/.test(m.subject));
    const token = /reset-password\/([\w-]+)/.exec(mail.text)![1]!;

    const { error, ms } = await closedAfter(video, async () => {
      const res = await stranger.call('POST', '/auth/reset-password', { token, newPassword: 'new-harbour-lantern-43' });
      expect(res.status).toBe(200);
    });
    expect(error).toEqual(SESSION_EXPIRED);
    expect(ms).toBeLessThan(1_000);
  }, 60_000);
});
