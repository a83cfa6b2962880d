import { SFU_SUBJECTS } from '@serendip/proto';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { type RunningSfu, startSfu } from './sfu-service.js';
import { MemoryRpc } from './test-support/memory-rpc.js';

// mediasoup reads MEDIASOUP_WORKER_BIN when first imported: this must run before the imports above.
vi.hoisted(() => {
  process.env.MEDIASOUP_WORKER_BIN = '/nonexistent/mediasoup-worker';
});

describe('sfu service whose worker cannot start', () => {
  const rpc = new MemoryRpc();
  const warnings: string[] = [];
  let sfu: RunningSfu;

  beforeAll(async () => {
    const logger = pino({ level: 'warn' }, { write: (line: string) => void warnings.push(JSON.parse(line).msg) });
    sfu = await startSfu({ healthPort: 0, host: '127.0.0.1', logger, rpc, nodeId: 'node-b', workers: 1 });
  });
  afterAll(() => sfu?.stop());

  it('still runs, says on its health probe that relay is off and why, and warns once', async () => {
    const health = await (await fetch(`http://127.0.0.1:${sfu.port}/health`)).json();
    expect(health).toEqual({
      message: expect.stringContaining('relay is off'),
      relay: false,
      disabledReason: expect.stringContaining('/nonexistent/mediasoup-worker'),
      nodeId: 'node-b',
      workers: [],
    });
    expect(warnings).toEqual([`Media relay and server snapshots are off: ${health.disabledReason}`]);
  });

  it('takes no new rooms (other nodes of the queue group will) and answers its own requests unavailable', async () => {
    expect(rpc.serves(SFU_SUBJECTS.createRoom)).toBe(false);
    for (const [subject, request] of [
      [SFU_SUBJECTS.node('node-b'), { type: 'joinRoom', roomId: 'call-1', peerId: 'alice' }],
      [SFU_SUBJECTS.node('node-b'), { type: 'snapshot', roomId: 'call-1', peerId: 'alice' }],
    ] as const) {
      expect(await rpc.request(subject, request)).toEqual({
        ok: false,
        error: { code: 'unavailable', reason: expect.stringContaining(sfu.disabledReason!) },
      });
    }
  });
});
