import { SFU_SUBJECTS } from '@serendip/proto';
import { pino } from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { InProcessBus } from '../../platform/messaging/in-process-bus.js';
import { SfuClient, SfuError } from './sfu-client.js';

const NODE = 'node-a';

/** A client on a bus where a fake SFU node answers whatever `answer` gives. */
function clientAnswering(answer: (request: unknown) => unknown) {
  const bus = new InProcessBus(pino({ level: 'silent' }));
  const failures: string[] = [];
  const served = bus.serve(SFU_SUBJECTS.node(NODE), async (request) => answer(request));
  const client = new SfuClient(bus, 1_000, (what) => failures.push(what));
  return { client, failures, close: () => served.unsubscribe() };
}

async function refusal(promise: Promise<unknown>): Promise<{ code: string; message: string }> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!(error instanceof SfuError)) throw new Error(`expected an SfuError, got ${String(error)}`);
  return { code: error.code, message: error.message };
}

describe('SfuClient', () => {
  let close: (() => Promise<void>) | undefined;
  afterEach(async () => {
    await close?.();
    close = undefined;
  });

  it('returns a result that fits what the request answers', async () => {
    const sfu = clientAnswering(() => ({ ok: true, result: { producerId: 'p1' } }));
    close = sfu.close;
    const answer = await sfu.client.send(NODE, {
      type: 'produce',
      roomId: 'm1',
      peerId: 'u1',
      kind: 'video',
      rtpParameters: {},
    });
    expect(answer).toEqual({ producerId: 'p1' });
    expect(sfu.failures).toEqual([]);
  });

  it('passes on a refusal in the contract, with its code and reason', async () => {
    const sfu = clientAnswering(() => ({ ok: false, error: { code: 'not-found', reason: 'No such room.' } }));
    close = sfu.close;
    expect(await refusal(sfu.client.send(NODE, { type: 'closeRoom', roomId: 'm1' }))).toEqual({
      code: 'not-found',
      message: 'No such room.',
    });
  });

  it('turns an answer outside the contract into a failure, the field at fault in the log only', async () => {
    const sfu = clientAnswering(() => ({ ok: true, result: { consumerId: 'c1', producerId: 'p1', kind: 'screen' } }));
    close = sfu.close;
    const consume = { type: 'consume', roomId: 'm1', peerId: 'u1', producerId: 'p1', rtpCapabilities: {} } as const;
    expect(await refusal(sfu.client.send(NODE, consume))).toEqual({
      code: 'failed',
      message: 'Media relay is unavailable right now.',
    });
    expect(sfu.failures).toEqual([
      `${SFU_SUBJECTS.node(NODE)}: the SFU answered outside the contract: consume answer: ` +
        'kind: must be one of "audio", "video"; rtpParameters: is missing',
    ]);
  });

  it('treats a reply that is no reply at all the same way', async () => {
    const sfu = clientAnswering(() => '<html>oops</html>');
    close = sfu.close;
    expect((await refusal(sfu.client.send(NODE, { type: 'closeRoom', roomId: 'm1' }))).code).toBe('failed');
    expect(sfu.failures[0]).toMatch(/outside the contract: reply: the message: must be an object$/);
  });
});
