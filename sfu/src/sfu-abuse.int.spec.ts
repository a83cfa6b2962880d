import { createSocket } from 'node:dgram';
import { checkSfuAnswer, type SfuAnswers, type SfuReply, type SfuRequest, SFU_SUBJECTS } from '@serendip/proto';
import type { types } from 'mediasoup';
import { pino } from 'pino';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { type RunningSfu, type SfuOptions, startSfu } from './sfu-service.js';
import { MemoryRpc } from './test-support/memory-rpc.js';
import { mediasoupWorkerForTests, NO_WORKER_REASON } from './test-support/mediasoup-worker.js';
import { startVp8Source } from './test-support/vp8-source.js';

// What a caller of the SFU's RPC could do to it beyond a call's needs: each test performs the attack against real
// mediasoup workers and checks what the partner, the sender or the operator would notice.

const worker = mediasoupWorkerForTests();
if (!worker) console.warn(`Skipping the SFU abuse tests: ${NO_WORKER_REASON}`);

/** One node on its own bus, and its RPC as the backend's client speaks it. */
function node(options: Partial<SfuOptions> & Pick<SfuOptions, 'rtcMinPort' | 'rtcMaxPort'>) {
  const rpc = new MemoryRpc();
  let sfu: RunningSfu;
  const stopSources: (() => void)[] = [];
  beforeAll(async () => {
    sfu = await startSfu({
      healthPort: 0,
      host: '127.0.0.1',
      logger: pino({ level: 'silent' }),
      rpc,
      workers: 1,
      ...options,
    });
  });
  afterEach(async () => {
    for (const stop of stopSources.splice(0)) stop();
    for (const room of [...sfu.rooms().values()]) room.close();
  });
  afterAll(() => sfu?.stop());

  const askNode = (request: unknown): Promise<SfuReply> => rpc.request(SFU_SUBJECTS.node(sfu.nodeId), request);
  async function ask<T extends SfuRequest['type']>(request: Extract<SfuRequest, { type: T }>): Promise<SfuAnswers[T]> {
    const subject = request.type === 'createRoom' ? SFU_SUBJECTS.createRoom : SFU_SUBJECTS.node(sfu.nodeId);
    const reply = await rpc.request(subject, request);
    if (!reply.ok) throw new Error(`${request.type} failed: ${reply.error.code}: ${reply.error.reason}`);
    const answer = checkSfuAnswer<T>(request.type, reply.result);
    if (!answer.ok) throw new Error(`${request.type} answered outside the contract: ${answer.reason}`);
    return answer.value;
  }
  /** alice and bob's call, both joined, alice sending ffmpeg's VP8 test pattern. */
  async function call(roomId: string, sourceOptions: Parameters<typeof startVp8Source>[2] = {}) {
    await ask({ type: 'createRoom', roomId, peerIds: ['alice', 'bob'] });
    const room = sfu.rooms().get(roomId)!;
    const consumers: types.Consumer[] = [];
    room.router.observer.on('newtransport', (transport) =>
      transport.observer.on('newconsumer', (c) => consumers.push(c)),
    );
    await ask({ type: 'joinRoom', roomId, peerId: 'alice' });
    await ask({ type: 'joinRoom', roomId, peerId: 'bob' });
    const source = await startVp8Source(room, 'alice', sourceOptions);
    stopSources.push(source.stop);
    const rtpCapabilities = room.router.rtpCapabilities as unknown as Record<string, unknown>;
    return { room, source, rtpCapabilities, consumers };
  }
  const consumersOnNode = () => sfu.load().workers.reduce((sum, load) => sum + load.consumers, 0);
  return { rpc, ask, askNode, call, consumersOnNode, sfu: () => sfu };
}

describe.skipIf(!worker)('SFU abuse: only the two peers the backend named join a room and receive its media', () => {
  const { rpc, ask, askNode, call } = node({ rtcMinPort: 43_300, rtcMaxPort: 43_399 });

  it('refuses a third peer id: it gets no transports, consumes nothing, and is not snapshotted', async () => {
    const { room, source, rtpCapabilities } = await call('peers-1');
    const notHere = { ok: false, error: { code: 'not-found', reason: expect.any(String) } };

    expect(await askNode({ type: 'joinRoom', roomId: 'peers-1', peerId: 'mallory' })).toEqual(notHere);
    expect(
      await askNode({
        type: 'consume',
        roomId: 'peers-1',
        peerId: 'mallory',
        producerId: source.producerId,
        rtpCapabilities,
      }),
    ).toEqual(notHere);
    expect(await askNode({ type: 'snapshot', roomId: 'peers-1', peerId: 'mallory' })).toEqual(notHere);
    // alice's and bob's transport pairs and the source's own: nothing was made for mallory.
    expect(room.counts()).toEqual({ transports: 5, producers: 1, consumers: 0 });
    // bob, who is in the call, still receives alice.
    await ask({ type: 'consume', roomId: 'peers-1', peerId: 'bob', producerId: source.producerId, rtpCapabilities });
  });

  it('keeps a room’s peers: a createRoom naming others for the same room is refused', async () => {
    await ask({ type: 'createRoom', roomId: 'peers-2', peerIds: ['alice', 'bob'] });
    expect(
      await rpc.request(SFU_SUBJECTS.createRoom, {
        type: 'createRoom',
        roomId: 'peers-2',
        peerIds: ['alice', 'mallory'],
      }),
    ).toMatchObject({ ok: false, error: { code: 'invalid' } });
    expect(await askNode({ type: 'joinRoom', roomId: 'peers-2', peerId: 'mallory' })).toMatchObject({ ok: false });
  });
});

describe.skipIf(!worker)('SFU abuse: one consumer per remote producer per peer', () => {
  const { ask, askNode, call, consumersOnNode } = node({ rtcMinPort: 43_400, rtcMaxPort: 43_499 });

  it('consuming the same producer 20 times, at once and one by one, leaves one consumer on the worker', async () => {
    const { source, rtpCapabilities } = await call('consume-1');
    const consume = () =>
      ask({ type: 'consume', roomId: 'consume-1', peerId: 'bob', producerId: source.producerId, rtpCapabilities });
    const answers = await Promise.all(Array.from({ length: 10 }, consume));
    for (let i = 0; i < 10; i++) answers.push(await consume());

    expect(new Set(answers.map((answer) => answer.consumerId)).size).toBe(1);
    expect(consumersOnNode()).toBe(1);
    // Nor can a peer loop its own media back to itself.
    expect(
      await askNode({
        type: 'consume',
        roomId: 'consume-1',
        peerId: 'alice',
        producerId: source.producerId,
        rtpCapabilities,
      }),
    ).toMatchObject({ ok: false, error: { code: 'invalid' } });
    expect(consumersOnNode()).toBe(1);
  });
});

describe.skipIf(!worker)('SFU abuse: one camera and one microphone per peer, however many it sends at once', () => {
  const { askNode, call } = node({ rtcMinPort: 43_600, rtcMaxPort: 43_699 });

  it('ten video produces at once make one producer: the partner is offered one video track', async () => {
    const { room } = await call('produce-1');
    const produce = (ssrc: number) =>
      askNode({
        type: 'produce',
        roomId: 'produce-1',
        peerId: 'bob',
        kind: 'video',
        rtpParameters: {
          codecs: [{ mimeType: 'video/VP8', payloadType: 101, clockRate: 90_000 }],
          encodings: [{ ssrc }],
        },
      });
    const replies = await Promise.all(Array.from({ length: 10 }, (_, i) => produce(1_000 + i)));
    expect(replies.filter((reply) => reply.ok)).toHaveLength(1);
    expect(replies.filter((reply) => !reply.ok)).toEqual(
      Array(9).fill({ ok: false, error: { code: 'invalid', reason: 'This peer already sends video.' } }),
    );
    // alice's test pattern and bob's one camera.
    expect(room.counts().producers).toBe(2);
  });
});

describe.skipIf(!worker)('SFU abuse: keyframe requests are rate limited', () => {
  const { ask, call } = node({ rtcMinPort: 43_500, rtcMaxPort: 43_599 });

  it('resuming a consumer 20 times asks the sender for a keyframe at most once', async () => {
    const { source, rtpCapabilities, consumers } = await call('keyframes-1');
    const { consumerId } = await ask({
      type: 'consume',
      roomId: 'keyframes-1',
      peerId: 'bob',
      producerId: source.producerId,
      rtpCapabilities,
    });
    const consumer = consumers.find((c) => c.id === consumerId)!;
    const asked = vi.spyOn(consumer, 'requestKeyFrame');
    for (let i = 0; i < 20; i++) {
      expect(await ask({ type: 'resumeConsumer', roomId: 'keyframes-1', peerId: 'bob', consumerId })).toEqual({
        resumed: true,
      });
    }
    expect(consumer.paused).toBe(false);
    expect(asked.mock.calls.length).toBeLessThanOrEqual(1);
  });

  it(
    'a receiver asking for keyframes 20 times a second reaches the sender about once a second',
    { timeout: 15_000 },
    async () => {
      // A sender that answers every request with a keyframe, as browsers do: each request the worker passes on
      // costs the sender a keyframe's bandwidth.
      const { room, source } = await call('keyframes-2', { keyFrameEveryFrame: true });
      await expect.poll(async () => (await source.producer.getStats()).length, { timeout: 5_000 }).toBeGreaterThan(0);
      // A receiver on a connected transport, as a browser's is once ICE and DTLS are up: its RTCP PLIs take the
      // worker's consumer.requestKeyFrame path.
      const sink = createSocket('udp4');
      await new Promise<void>((resolve) => sink.bind(0, '127.0.0.1', resolve));
      const transport = await room.router.createPlainTransport({ listenIp: '127.0.0.1', rtcpMux: true });
      await transport.connect({ ip: '127.0.0.1', port: sink.address().port });
      const receiver = await transport.consume({
        producerId: source.producerId,
        rtpCapabilities: room.router.rtpCapabilities,
      });
      try {
        await new Promise((resolve) => setTimeout(resolve, 1_500));
        const plis = async () => (await source.producer.getStats())[0]!.pliCount;
        const before = await plis();
        const startedAt = Date.now();
        for (let i = 0; i < 40; i++) {
          await receiver.requestKeyFrame();
          await new Promise((resolve) => setTimeout(resolve, 50));
        }
        const sent = (await plis()) - before;
        const seconds = Math.ceil((Date.now() - startedAt) / 1_000);
        // About 2 s of asking: the first request at once, then at most one a second (24 reached the sender before).
        expect(sent).toBeGreaterThanOrEqual(1);
        expect(sent).toBeLessThanOrEqual(1 + seconds);
      } finally {
        transport.close();
        sink.close();
      }
    },
  );
});

describe.skipIf(!worker)('SFU abuse: a node takes no more rooms than its ports can hold', () => {
  // 8 ports: two calls of two peers with a send and a receive transport each.
  const { rpc, ask, askNode, sfu } = node({ rtcMinPort: 43_200, rtcMaxPort: 43_207, maxRooms: 2 });
  const create = (roomId: string) =>
    rpc.request(SFU_SUBJECTS.createRoom, { type: 'createRoom', roomId, peerIds: ['a', 'b'] });

  it('with a cap of 2 the third room is refused as unavailable, and the two calls keep their ports', async () => {
    const replies = await Promise.all(['cap-1', 'cap-2', 'cap-3'].map(create));
    expect(replies.filter((reply) => reply.ok)).toHaveLength(2);
    expect(replies.filter((reply) => !reply.ok)).toEqual([
      { ok: false, error: { code: 'unavailable', reason: expect.any(String) } },
    ]);
    const open = [...sfu().rooms().keys()];
    expect(open).toHaveLength(2);
    // A full node leaves the queue group: another node takes the next room, or the backend hears nobody answer
    // (relay unavailable for that call).
    expect(rpc.serves(SFU_SUBJECTS.createRoom)).toBe(false);
    await expect(create('cap-4')).rejects.toThrow('nobody serves');

    // Both calls get all their transports, and a peer re-joining (a reload) still gets a pair: no port ran out.
    for (const roomId of open) {
      for (const peerId of ['a', 'b']) await ask({ type: 'joinRoom', roomId, peerId });
    }
    const rejoins = await Promise.all(
      Array.from({ length: 5 }, () => askNode({ type: 'joinRoom', roomId: open[0]!, peerId: 'a' })),
    );
    expect(rejoins.map((reply) => reply.ok)).toEqual([true, true, true, true, true]);
    expect(sfu().load().workers[0]).toMatchObject({ rooms: 2, transports: 8 });

    // A call that ends frees its place.
    await ask({ type: 'closeRoom', roomId: open[0]! });
    expect(rpc.serves(SFU_SUBJECTS.createRoom)).toBe(true);
    expect(await create('cap-5')).toMatchObject({ ok: true });
  });
});
