import { SFU_SUBJECTS } from '@serendip/proto';
import { pino } from 'pino';
import { afterAll, describe, expect, it } from 'vitest';
import { type RunningSfu, startSfu } from './sfu-service.js';
import { MemoryRpc } from './test-support/memory-rpc.js';
import { mediasoupWorkerForTests, NO_WORKER_REASON } from './test-support/mediasoup-worker.js';

const worker = mediasoupWorkerForTests();
if (!worker) console.warn(`Skipping the abandoned-room test: ${NO_WORKER_REASON}`);

describe.skipIf(!worker)('abandoned rooms', () => {
  let sfu: RunningSfu | undefined;
  afterAll(() => sfu?.stop());

  it('closes a room no browser connects to, so a backend that died cannot leak it', async () => {
    const rpc = new MemoryRpc();
    sfu = await startSfu({
      healthPort: 0,
      host: '127.0.0.1',
      logger: pino({ level: 'silent' }),
      rpc,
      workers: 1,
      rtcMinPort: 43_000,
      rtcMaxPort: 43_099,
      loadIntervalMs: 100,
      idleRoomMs: 500,
    });
    await rpc.request(SFU_SUBJECTS.createRoom, { type: 'createRoom', roomId: 'call-1', peerIds: ['alice', 'bob'] });
    await rpc.request(SFU_SUBJECTS.node(sfu.nodeId), { type: 'joinRoom', roomId: 'call-1', peerId: 'alice' });
    expect(sfu.rooms().has('call-1')).toBe(true);
    await expect.poll(() => sfu!.rooms().has('call-1'), { timeout: 3_000 }).toBe(false);
    expect(sfu.load().workers[0]).toMatchObject({ rooms: 0, transports: 0 });
  });
});
