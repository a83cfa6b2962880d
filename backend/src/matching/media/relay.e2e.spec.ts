import { randomUUID } from 'node:crypto';
import { type MatchFound, type MediaJoinAnswer, SFU_SUBJECTS, type SfuLoad } from '@serendip/proto';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { signedInAdmin } from '../../test-support/admins.js';
import { mediasoupWorker } from '../../test-support/mediasoup-worker.js';
import { startTestApp, type TestApp } from '../../test-support/test-app.js';
import { ANYONE, eventsWithin, nextEvent, type VideoClient, videoUser } from '../../test-support/video-users.js';
import { EmbeddedSfu } from './embedded-sfu.js';

const worker = mediasoupWorker();

/** Over the real socket, the real bus and a real mediasoup worker in this process (the npm start setup). */
describe.skipIf(!worker)('calls relayed through the SFU', () => {
  const apps: TestApp[] = [];
  const open: VideoClient[] = [];
  let relay: TestApp;
  let auto: TestApp;

  beforeAll(async () => {
    relay = await startTestApp({ MEDIA_MODE: 'relay' });
    auto = await startTestApp({ MEDIA_MODE: 'auto' });
    apps.push(relay, auto);
  }, 60_000);
  afterEach(() => {
    for (const socket of open.splice(0)) socket.close();
  });
  afterAll(async () => {
    await Promise.all(apps.map((a) => a.close()));
  });

  async function pair(app: TestApp, options: { adaHidesIp?: boolean } = {}) {
    const ada = await videoUser(app.base, { firstName: 'Ada', gender: 'female' });
    const bob = await videoUser(app.base, { firstName: 'Bob', gender: 'male' });
    if (options.adaHidesIp) {
      const set = await ada.api.call('POST', '/user/privacy', { hideIp: true });
      expect(set.status).toBe(200);
    }
    const [adaSocket, bobSocket] = [await ada.connect(), await bob.connect()];
    open.push(adaSocket, bobSocket);
    const adaFound = nextEvent(adaSocket, 'matchFound');
    const bobFound = nextEvent(bobSocket, 'matchFound');
    await adaSocket.emitWithAck('startMatching', { filters: ANYONE, deviceType: 'desktop' });
    await bobSocket.emitWithAck('startMatching', { filters: ANYONE, deviceType: 'desktop' });
    return { ada, bob, adaSocket, bobSocket, adaMatch: await adaFound, bobMatch: await bobFound };
  }

  const rooms = (app: TestApp) => app.app.get(EmbeddedSfu).running!.rooms();
  /** Why the call was relayed, as the read model has it (a moment after the move). */
  const relayReasonOf = (app: TestApp, matchId: string) =>
    app.db.selectFrom('matches').select('relay_reason').where('match_id', '=', matchId).executeTakeFirst();

  it('relay mode: the call gets an SFU room, transports on the SFU address, and no peer signalling', async () => {
    const { ada, bob, adaSocket, bobSocket, adaMatch, bobMatch } = await pair(relay);
    expect(adaMatch).toMatchObject({ media: 'relay', relayFallback: false });
    expect(bobMatch.media).toBe('relay');
    expect(rooms(relay).has(adaMatch.matchId)).toBe(true);
    // The room takes these two users only: the SFU refuses any other peer id in it.
    expect([...rooms(relay).get(adaMatch.matchId)!.peerIds].sort()).toEqual([ada.user._id, bob.user._id].sort());

    const joined = (await adaSocket.emitWithAck('media:join', {})) as MediaJoinAnswer;
    expect(joined.routerRtpCapabilities).toHaveProperty('codecs');
    // The browser connects to the SFU's address only; the partner's address is nowhere in what it gets.
    for (const transport of [joined.sendTransport, joined.recvTransport]) {
      expect(transport.iceCandidates.map((c) => c.ip)).toEqual(expect.arrayContaining(['127.0.0.1']));
    }
    expect(joined.producers).toEqual([]);

    // SDP and ICE candidates carry IP addresses: in a relayed call they never reach the partner.
    const refused = await adaSocket.emitWithAck('offer', {
      target: adaMatch.partnerId,
      description: { type: 'offer', sdp: 'v=0' },
    });
    expect(refused).toEqual({ error: { reason: expect.stringContaining('goes through our media servers') } });

    // Bad parameters are refused with a reason and change nothing.
    expect(await adaSocket.emitWithAck('media:connect', { transportId: '', dtlsParameters: {} })).toEqual({
      error: { reason: expect.stringContaining('transportId') },
    });
    expect(
      await bobSocket.emitWithAck('media:consume', { producerId: 'no-such-producer', rtpCapabilities: {} }),
    ).toMatchObject({ error: { reason: expect.any(String) } });

    // The Report dialog opened in a relayed call: it is where it would move to already.
    const movedAgain = eventsWithin(bobSocket, 'media:path', 500);
    expect(await adaSocket.emitWithAck('report:opened', { target: adaMatch.partnerId })).toEqual({ ok: true });
    expect(await movedAgain).toEqual([]);

    // A skip closes the call's router.
    await adaSocket.emitWithAck('leaveVideoRoom', { next: true });
    await expect.poll(() => rooms(relay).has(adaMatch.matchId)).toBe(false);
  });

  it('media requests outside a relayed call are refused, and a snapshot needs an admin and a relayed call', async () => {
    const { ada, adaSocket, adaMatch } = await pair(auto);
    expect(adaMatch).toMatchObject({ media: 'p2p', relayFallback: true });
    expect(await adaSocket.emitWithAck('media:join', {})).toEqual({
      error: { reason: 'This call does not go through our media servers.' },
    });

    expect((await ada.api.call('POST', '/admin/snapshots', { userId: ada.user._id })).status).toBe(403);
    const { admin } = await signedInAdmin(auto);
    const reason = 'Reported for showing a weapon on camera';
    expect((await admin.call('POST', '/admin/snapshots', { userId: 'nope', reason })).body).toMatchObject({
      statusCode: 400,
      message: ['userId must be a user id'],
    });
    expect((await admin.call('POST', '/admin/snapshots', { userId: ada.user._id, reason })).body).toMatchObject({
      statusCode: 400,
      message: ['That user is not in a relayed call.'],
    });
  });

  it('auto mode: a side whose peer connection failed moves the call to the SFU for both, recorded as such', async () => {
    const { adaSocket, bobSocket, adaMatch } = await pair(auto);
    const adaMoved = nextEvent(adaSocket, 'media:path');
    const bobMoved = nextEvent(bobSocket, 'media:path');
    expect(await adaSocket.emitWithAck('media:fallback', { target: adaMatch.partnerId })).toEqual({ ok: true });
    expect(await adaMoved).toEqual({ matchId: adaMatch.matchId, path: 'relay' });
    expect(await bobMoved).toEqual({ matchId: adaMatch.matchId, path: 'relay' });
    const joined = (await bobSocket.emitWithAck('media:join', {})) as MediaJoinAnswer;
    expect(joined.sendTransport.id).toEqual(expect.any(String));
    await expect.poll(() => relayReasonOf(auto, adaMatch.matchId)).toEqual({ relay_reason: 'p2p-failed' });
  });

  it('auto mode: opening the Report dialog moves a peer-to-peer call to the SFU, recorded as a report', async () => {
    const { adaSocket, bobSocket, adaMatch, bobMatch } = await pair(auto);
    expect(adaMatch.media).toBe('p2p');
    const adaMoved = nextEvent(adaSocket, 'media:path');
    const bobMoved = nextEvent(bobSocket, 'media:path');
    expect(await bobSocket.emitWithAck('report:opened', { target: bobMatch.partnerId })).toEqual({ ok: true });
    expect(await adaMoved).toEqual({ matchId: adaMatch.matchId, path: 'relay' });
    expect(await bobMoved).toEqual({ matchId: adaMatch.matchId, path: 'relay' });
    // The room is there for the server's own snapshot of the reported side, once its video flows.
    expect(rooms(auto).has(adaMatch.matchId)).toBe(true);
    const joined = (await adaSocket.emitWithAck('media:join', {})) as MediaJoinAnswer;
    expect(joined.sendTransport.id).toEqual(expect.any(String));
    await expect.poll(() => relayReasonOf(auto, adaMatch.matchId)).toEqual({ relay_reason: 'report' });

    // Opened again, by either side: nothing moves twice.
    const movedAgain = eventsWithin(adaSocket, 'media:path', 500);
    expect(await adaSocket.emitWithAck('report:opened', { target: adaMatch.partnerId })).toEqual({ ok: true });
    expect(await movedAgain).toEqual([]);
  });

  it('"hide my IP" relays that user\'s calls, and the setting is checked and kept', async () => {
    const bad = await videoUser(auto.base);
    expect((await bad.api.call('POST', '/user/privacy', { hideIp: 'yes' })).body).toMatchObject({
      statusCode: 400,
      message: ['hideIp must be true or false'],
    });
    const { ada, bobMatch } = await pair(auto, { adaHidesIp: true });
    expect(bobMatch).toMatchObject<Partial<MatchFound>>({ media: 'relay', relayFallback: false });
    expect((await ada.api.call('GET', '/auth/user-info')).body).toMatchObject({ hideIp: true });
  });

  it('with no SFU to relay, a user who hides their IP is told so at the start and never paired peer to peer', async () => {
    const noRelay = await startTestApp({ MEDIA_MODE: 'auto', SFU_EMBEDDED: 'false' });
    apps.push(noRelay);
    const ada = await videoUser(noRelay.base);
    expect((await ada.api.call('POST', '/user/privacy', { hideIp: true })).status).toBe(200);
    const socket = await ada.connect();
    open.push(socket);
    const refused = nextEvent(socket, 'videoError');
    expect(await socket.emitWithAck('startMatching', { filters: ANYONE, deviceType: 'desktop' })).toEqual({
      error: { reason: expect.stringContaining("Calls that hide your IP address can't be made right now") },
    });
    expect(await refused).toMatchObject({ code: 'unavailable' });
  });
});

describe('SFU abuse: an SFU that never answers holds up only the call waiting for it', () => {
  let app: TestApp | undefined;
  const open: VideoClient[] = [];
  afterAll(async () => {
    for (const socket of open) socket.close();
    await app?.close();
  });

  it('others are paired at once while a hidden-IP call waits out the SFU’s 2 s, then hears it is unavailable', async () => {
    app = await startTestApp({ MEDIA_MODE: 'auto', SFU_EMBEDDED: 'false' });
    // A node that says it can relay, then takes every room request and never answers.
    const silent: SfuLoad = {
      nodeId: 'silent-node',
      workers: [{ pid: 1, rooms: 0, transports: 0, producers: 0, consumers: 0, cpu: 0 }],
      disabledReason: null,
      at: new Date().toISOString(),
    };
    await app.core.bus.publish({ subject: SFU_SUBJECTS.load, id: randomUUID(), data: silent });
    app.core.bus.serve(SFU_SUBJECTS.createRoom, () => new Promise(() => {}));

    const [ada, bob, cleo, dan] = await Promise.all(
      ['Ada', 'Bob', 'Cleo', 'Dan'].map((firstName) => videoUser(app!.base, { firstName })),
    );
    expect((await ada!.api.call('POST', '/user/privacy', { hideIp: true })).status).toBe(200);
    const sockets = await Promise.all([ada!, bob!, cleo!, dan!].map((user) => user.connect()));
    open.push(...sockets);
    const [adaSocket, bobSocket, cleoSocket, danSocket] = sockets as [
      VideoClient,
      VideoClient,
      VideoClient,
      VideoClient,
    ];
    const start = { filters: ANYONE, deviceType: 'desktop' } as const;

    const adaRefused = nextEvent(adaSocket, 'videoError');
    await adaSocket.emitWithAck('startMatching', start);
    await bobSocket.emitWithAck('startMatching', start);
    // ada and bob are paired; their room is being asked for. cleo and dan come next, and must not wait for it.
    const cleoFound = nextEvent(cleoSocket, 'matchFound');
    const danFound = nextEvent(danSocket, 'matchFound');
    await cleoSocket.emitWithAck('startMatching', start);
    await danSocket.emitWithAck('startMatching', start);
    const first = await Promise.race([danFound.then(() => 'dan paired'), adaRefused.then(() => 'ada refused')]);
    expect(first).toBe('dan paired');
    expect((await cleoFound).media).toBe('p2p');

    // The hidden-IP call never goes peer to peer: without a room it is refused, as before.
    expect(await adaRefused).toMatchObject({ code: 'unavailable' });
  });
});
