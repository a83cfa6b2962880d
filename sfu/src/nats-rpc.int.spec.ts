import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { connect, type NatsConnection } from 'nats';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { natsRpcPort } from './nats-rpc.js';

const NATS_SERVER = '/usr/sbin/nats-server';
const haveNats = existsSync(NATS_SERVER);
if (!haveNats) console.warn(`Skipping the NATS RPC test: ${NATS_SERVER} is missing (apt-get install -y nats-server)`);

/** A nats-server of this test's own on a random port; resolves with its URL once it listens. */
function startNatsServer(): Promise<{ url: string; child: ChildProcess }> {
  const child = spawn(NATS_SERVER, ['-a', '127.0.0.1', '-p', '-1'], { stdio: ['ignore', 'pipe', 'pipe'] });
  return new Promise((resolve, reject) => {
    let output = '';
    const timer = setTimeout(() => reject(new Error(`nats-server did not start:\n${output}`)), 10_000);
    child.stderr!.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const port = /Listening for client connections on 127\.0\.0\.1:(\d+)/.exec(output)?.[1];
      if (port) {
        clearTimeout(timer);
        resolve({ url: `nats://127.0.0.1:${port}`, child });
      }
    });
  });
}

describe.skipIf(!haveNats)('natsRpcPort', () => {
  let server: ChildProcess;
  let nc: NatsConnection;
  const encode = (value: unknown) => new TextEncoder().encode(JSON.stringify(value));
  const decode = (data: Uint8Array) => JSON.parse(new TextDecoder().decode(data));

  beforeAll(async () => {
    const started = await startNatsServer();
    server = started.child;
    nc = await connect({ servers: started.url });
  });
  afterAll(async () => {
    await nc?.close();
    server?.kill('SIGKILL');
  });

  it('answers requests as JSON, hands a non-JSON body over as undefined, and stops serving when closed', async () => {
    const seen: unknown[] = [];
    const serving = natsRpcPort(nc).serve(
      'sfu.test.echo',
      async (request) => {
        seen.push(request);
        return { ok: true, result: request ?? null };
      },
      { queue: 'sfu' },
    );
    expect(decode((await nc.request('sfu.test.echo', encode({ type: 'load' }))).data)).toEqual({
      ok: true,
      result: { type: 'load' },
    });
    expect(decode((await nc.request('sfu.test.echo', new TextEncoder().encode('not json'))).data)).toEqual({
      ok: true,
      result: null,
    });
    expect(seen).toEqual([{ type: 'load' }, undefined]);

    await serving.close();
    await expect(nc.request('sfu.test.echo', encode({ type: 'load' }), { timeout: 500 })).rejects.toThrow();
  });

  it('publishes JSON', async () => {
    const subscription = nc.subscribe('sfu.test.load', { max: 1 });
    await natsRpcPort(nc).publish('sfu.test.load', { nodeId: 'n' });
    for await (const message of subscription) expect(decode(message.data)).toEqual({ nodeId: 'n' });
  });
});
