import { createHash } from 'node:crypto';
import {
  checkSfuAnswer,
  roomLostSchema,
  type SfuAnswers,
  sfuLoadSchema,
  type SfuReply,
  type SfuRequest,
  SFU_SUBJECTS,
} from '@serendip/proto';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jpegSize } from './media/jpeg-size.js';
import { type RunningSfu, startSfu } from './sfu-service.js';
import { MemoryRpc } from './test-support/memory-rpc.js';
import { mediasoupWorkerForTests, NO_WORKER_REASON } from './test-support/mediasoup-worker.js';
import { startVp8Source } from './test-support/vp8-source.js';

const worker = mediasoupWorkerForTests();
if (!worker) console.warn(`Skipping the SFU media tests: ${NO_WORKER_REASON}`);

describe.skipIf(!worker)('sfu service with real mediasoup workers', () => {
  const rpc = new MemoryRpc();
  let sfu: RunningSfu;
  const stopSources: (() => void)[] = [];

  beforeAll(async () => {
    sfu = await startSfu({
      healthPort: 0,
      host: '127.0.0.1',
      logger: pino({ level: 'silent' }),
      rpc,
      nodeId: 'node-a',
      workers: 2,
      listenIp: '127.0.0.1',
      rtcMinPort: 42_000,
      rtcMaxPort: 42_999,
      loadIntervalMs: 200,
    });
  });
  afterAll(async () => {
    for (const stop of stopSources) stop();
    await sfu?.stop();
  });

  async function ask<T extends SfuRequest['type']>(request: Extract<SfuRequest, { type: T }>): Promise<SfuAnswers[T]> {
    const subject = request.type === 'createRoom' ? SFU_SUBJECTS.createRoom : SFU_SUBJECTS.node(sfu.nodeId);
    const reply = await rpc.request(subject, request);
    if (!reply.ok) throw new Error(`${request.type} failed: ${reply.error.code}: ${reply.error.reason}`);
    // Every answer must be what the backend's client accepts (proto's answer schemas).
    const answer = checkSfuAnswer<T>(request.type, reply.result);
    if (!answer.ok) throw new Error(`${request.type} answered outside the contract: ${answer.reason}`);
    return answer.value;
  }
  const askNode = (request: unknown): Promise<SfuReply> => rpc.request(SFU_SUBJECTS.node(sfu.nodeId), request);

  const peerIds: [string, string] = ['alice', 'bob'];

  /** A room with two joined peers, alice sending ffmpeg's VP8 test pattern. */
  async function callWithVideo(roomId: string) {
    await ask({ type: 'createRoom', roomId, peerIds });
    await ask({ type: 'joinRoom', roomId, peerId: 'alice' });
    const bob = await ask({ type: 'joinRoom', roomId, peerId: 'bob' });
    const room = sfu.rooms().get(roomId)!;
    const source = await startVp8Source(room, 'alice');
    stopSources.push(source.stop);
    return { room, bob, source };
  }

  it('answers its health probe with relay on and its workers', async () => {
    const res = await fetch(`http://127.0.0.1:${sfu.port}/health`);
    expect(res.status).toBe(200);
    const health = await res.json();
    expect(health).toMatchObject({ relay: true, disabledReason: null, nodeId: 'node-a' });
    expect(health.workers).toHaveLength(2);
    expect((await fetch(`http://127.0.0.1:${sfu.port}/nope`)).status).toBe(404);
  });

  it('creates a room once, and gives each joining peer a send and a receive transport on loopback', async () => {
    const created = await ask({ type: 'createRoom', roomId: 'call-1', peerIds });
    expect(created).toMatchObject({ nodeId: 'node-a', roomId: 'call-1' });
    expect(created.routerRtpCapabilities).toHaveProperty('codecs');
    await ask({ type: 'createRoom', roomId: 'call-1', peerIds: ['bob', 'alice'] });
    expect(sfu.rooms().size).toBe(1);

    const alice = await ask({ type: 'joinRoom', roomId: 'call-1', peerId: 'alice' });
    expect(alice.sendTransport.id).not.toBe(alice.recvTransport.id);
    expect(alice.sendTransport.iceCandidates[0]).toMatchObject({ ip: '127.0.0.1' });
    expect(alice.producers).toEqual([]);
    // A re-join replaces the earlier pair.
    await ask({ type: 'joinRoom', roomId: 'call-1', peerId: 'alice' });
    expect(sfu.rooms().get('call-1')!.counts().transports).toBe(2);
    await ask({ type: 'closeRoom', roomId: 'call-1' });
  });

  it('lets a peer consume only the other peer’s media, paused until resumed', async () => {
    const { room, source } = await callWithVideo('call-2');
    const rtpCapabilities = room.router.rtpCapabilities as unknown as Record<string, unknown>;

    const own = await askNode({
      type: 'consume',
      roomId: 'call-2',
      peerId: 'alice',
      producerId: source.producerId,
      rtpCapabilities,
    });
    expect(own).toEqual({ ok: false, error: { code: 'invalid', reason: expect.stringContaining('own') } });
    // One camera per peer: a second video track is refused before it reaches the partner.
    expect(
      await askNode({ type: 'produce', roomId: 'call-2', peerId: 'alice', kind: 'video', rtpParameters: {} }),
    ).toEqual({ ok: false, error: { code: 'invalid', reason: 'This peer already sends video.' } });

    const consumed = await ask({
      type: 'consume',
      roomId: 'call-2',
      peerId: 'bob',
      producerId: source.producerId,
      rtpCapabilities,
    });
    expect(consumed).toMatchObject({ producerId: source.producerId, kind: 'video' });
    expect(
      await ask({ type: 'resumeConsumer', roomId: 'call-2', peerId: 'bob', consumerId: consumed.consumerId }),
    ).toEqual({
      resumed: true,
    });
    // A peer joining again (a reload) learns of the producers already there.
    const bobAgain = await ask({ type: 'joinRoom', roomId: 'call-2', peerId: 'bob' });
    expect(bobAgain.producers).toEqual([{ producerId: source.producerId, peerId: 'alice', kind: 'video' }]);
  });

  it('takes a server snapshot of a peer’s video: a 640x480 JPEG with its SHA-256', { timeout: 20_000 }, async () => {
    await callWithVideo('call-3');
    const snapshot = await ask({ type: 'snapshot', roomId: 'call-3', peerId: 'alice' });
    const jpeg = Buffer.from(snapshot.jpeg, 'base64');
    expect(jpegSize(jpeg)).toEqual({ width: 640, height: 480 });
    expect({ width: snapshot.width, height: snapshot.height }).toEqual({ width: 640, height: 480 });
    expect(snapshot.sha256).toBe(createHash('sha256').update(jpeg).digest('hex'));
    expect(Date.parse(snapshot.takenAt)).not.toBeNaN();
    // The snapshot's own transport and consumer are gone.
    expect(sfu.rooms().get('call-3')!.router).toBeDefined();
  });

  it('refuses a snapshot of someone not in the call, or not sending video', async () => {
    expect(await askNode({ type: 'snapshot', roomId: 'no-such-call', peerId: 'alice' })).toEqual({
      ok: false,
      error: { code: 'not-found', reason: 'That user is not in a relayed call.' },
    });
    await ask({ type: 'createRoom', roomId: 'call-4', peerIds });
    expect(await askNode({ type: 'snapshot', roomId: 'call-4', peerId: 'mallory' })).toEqual({
      ok: false,
      error: { code: 'not-found', reason: 'That user is not in a relayed call.' },
    });
    await ask({ type: 'joinRoom', roomId: 'call-4', peerId: 'bob' });
    expect(await askNode({ type: 'snapshot', roomId: 'call-4', peerId: 'bob' })).toMatchObject({
      ok: false,
      error: { code: 'no-video' },
    });
  });

  it('frees every transport, producer and consumer when a room closes, and closing again is harmless', async () => {
    const { room, source } = await callWithVideo('call-5');
    const rtpCapabilities = room.router.rtpCapabilities as unknown as Record<string, unknown>;
    await ask({ type: 'consume', roomId: 'call-5', peerId: 'bob', producerId: source.producerId, rtpCapabilities });
    expect(room.counts()).toEqual({ transports: 5, producers: 1, consumers: 1 });

    // Close every room the earlier tests left open, then nothing may be left on any worker.
    for (const roomId of [...sfu.rooms().keys()])
      expect(await ask({ type: 'closeRoom', roomId })).toEqual({ closed: true });
    expect(await ask({ type: 'closeRoom', roomId: 'call-5' })).toEqual({ closed: false });
    expect(sfu.rooms().size).toBe(0);
    for (const load of sfu.load().workers) {
      expect(load).toMatchObject({ rooms: 0, transports: 0, producers: 0, consumers: 0 });
    }
    expect(await askNode({ type: 'joinRoom', roomId: 'call-5', peerId: 'bob' })).toMatchObject({
      ok: false,
      error: { code: 'not-found' },
    });
  });

  it('answers malformed requests with invalid instead of throwing', async () => {
    expect(await askNode({ type: 'dance' })).toMatchObject({ ok: false, error: { code: 'invalid' } });
    expect(await askNode('joinRoom')).toMatchObject({ ok: false, error: { code: 'invalid' } });
    expect(await askNode({ type: 'joinRoom', roomId: 'call-6' })).toMatchObject({
      ok: false,
      error: { code: 'invalid', reason: expect.stringContaining('peerId') },
    });
    expect(await rpc.request(SFU_SUBJECTS.createRoom, { type: 'closeRoom', roomId: 'x' })).toMatchObject({
      ok: false,
      error: { code: 'invalid' },
    });
    await ask({ type: 'createRoom', roomId: 'call-6', peerIds });
    await ask({ type: 'joinRoom', roomId: 'call-6', peerId: 'alice' });
    // mediasoup's own check of the parameters, passed on as 'invalid'.
    expect(
      await askNode({ type: 'produce', roomId: 'call-6', peerId: 'alice', kind: 'video', rtpParameters: {} }),
    ).toMatchObject({
      ok: false,
      error: { code: 'invalid' },
    });
    await ask({ type: 'closeRoom', roomId: 'call-6' });
  });

  it('publishes its load every interval', async () => {
    const load = sfuLoadSchema.parse(await rpc.nextPublished(SFU_SUBJECTS.load));
    expect(load).toMatchObject({ nodeId: 'node-a', disabledReason: null });
    expect(load.workers).toHaveLength(2);
    expect(load.workers[0]!.cpu).toBeGreaterThanOrEqual(0);
  });

  it('replaces a worker killed under it and reports its rooms lost', { timeout: 15_000 }, async () => {
    await ask({ type: 'createRoom', roomId: 'call-7', peerIds });
    const victim = sfu.load().workers.find((load) => load.rooms === 1)!;
    process.kill(victim.pid, 'SIGKILL');

    const lost = roomLostSchema.parse(await rpc.nextPublished(SFU_SUBJECTS.roomLost));
    expect(lost).toEqual({ nodeId: 'node-a', roomId: 'call-7', reason: expect.stringContaining(String(victim.pid)) });
    expect(sfu.rooms().has('call-7')).toBe(false);
    await expect.poll(() => sfu.load().workers.map((load) => load.pid), { timeout: 5_000 }).not.toContain(victim.pid);
    expect(sfu.load().workers).toHaveLength(2);
    // The backend recreates the room, and the call rejoins.
    await ask({ type: 'createRoom', roomId: 'call-7', peerIds });
    await ask({ type: 'joinRoom', roomId: 'call-7', peerId: 'alice' });
  });

  it(
    'on a node with one worker, makes a lost room again on the worker that replaces it',
    { timeout: 15_000 },
    async () => {
      const single = new MemoryRpc();
      const node = await startSfu({
        healthPort: 0,
        host: '127.0.0.1',
        logger: pino({ level: 'silent' }),
        rpc: single,
        nodeId: 'node-one',
        workers: 1,
        listenIp: '127.0.0.1',
        rtcMinPort: 43_000,
        rtcMaxPort: 43_499,
      });
      try {
        const create = () => single.request(SFU_SUBJECTS.createRoom, { type: 'createRoom', roomId: 'call-8', peerIds });
        expect((await create()).ok).toBe(true);
        const [only] = node.load().workers;
        process.kill(only!.pid, 'SIGKILL');
        await single.nextPublished(SFU_SUBJECTS.roomLost);
        // The backend asks again at once, while the replacement is still starting: the room waits for it.
        const again = await create();
        expect(again).toMatchObject({ ok: true });
        expect(node.load().workers.map((w) => w.pid)).not.toContain(only!.pid);
      } finally {
        await node.stop();
      }
    },
  );
});

describe('sfu service without a bus', () => {
  it('frees its port when stopped', async () => {
    const started = await startSfu({ healthPort: 0, host: '127.0.0.1', logger: pino({ level: 'silent' }), workers: 1 });
    await started.stop();
    await expect(fetch(`http://127.0.0.1:${started.port}/health`)).rejects.toThrow();
  });
});
