import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { InProcessBus } from './in-process-bus.js';
import type { BusMessage } from './message-bus.js';

function capturedLogger() {
  const lines: Record<string, unknown>[] = [];
  const logger = pino({ level: 'info' }, { write: (line: string) => void lines.push(JSON.parse(line)) });
  return { logger, lines };
}

/** Lets queued handlers run. */
const settle = () => new Promise((r) => setTimeout(r, 0));

describe('InProcessBus', () => {
  it('routes with NATS wildcards: * one token, > the rest', async () => {
    const bus = new InProcessBus(capturedLogger().logger);
    const got: Record<string, string[]> = { exact: [], star: [], rest: [], user: [] };
    bus.subscribe('evt.moderation.UserBanned', (m) => void got.exact!.push(m.subject));
    bus.subscribe('evt.*.UserBanned', (m) => void got.star!.push(m.subject));
    bus.subscribe('evt.>', (m) => void got.rest!.push(m.subject));
    bus.subscribe('user.*', (m) => void got.user!.push(m.subject));

    await bus.publish({ subject: 'evt.moderation.UserBanned', id: '1', data: {} });
    await bus.publish({ subject: 'evt.feed.PostLiked', id: '2', data: {} });
    await bus.publish({ subject: 'user.u1', id: '3', data: {} });
    await bus.publish({ subject: 'user.u1.deeper', id: '4', data: {} });
    await settle();

    expect(got).toEqual({
      exact: ['evt.moderation.UserBanned'],
      star: ['evt.moderation.UserBanned'],
      rest: ['evt.moderation.UserBanned', 'evt.feed.PostLiked'],
      user: ['user.u1'],
    });
  });

  it('gives each message to one member of a queue group, round robin, and to every plain subscriber', async () => {
    const bus = new InProcessBus(capturedLogger().logger);
    const got: string[][] = [[], [], []];
    bus.subscribe('user.*', (m) => void got[0]!.push(m.id), { queue: 'realtime' });
    bus.subscribe('user.*', (m) => void got[1]!.push(m.id), { queue: 'realtime' });
    bus.subscribe('user.*', (m) => void got[2]!.push(m.id));

    for (let i = 0; i < 6; i++) await bus.publish({ subject: `user.u${i}`, id: `m${i}`, data: null });
    await settle();

    expect(got[0]).toEqual(['m0', 'm2', 'm4']);
    expect(got[1]).toEqual(['m1', 'm3', 'm5']);
    expect(got[2]).toEqual(['m0', 'm1', 'm2', 'm3', 'm4', 'm5']);
  });

  it('shares a durable name like a queue group, and only on evt subjects', async () => {
    const bus = new InProcessBus(capturedLogger().logger);
    const got: string[] = [];
    bus.subscribe('evt.>', (m) => void got.push(`a:${m.id}`), { durable: 'notifications' });
    bus.subscribe('evt.>', (m) => void got.push(`b:${m.id}`), { durable: 'notifications' });
    await bus.publish({ subject: 'evt.ops.ServiceStarted', id: '1', data: {} });
    await bus.publish({ subject: 'evt.ops.ServiceStarted', id: '2', data: {} });
    await settle();
    expect(got).toEqual(['a:1', 'b:2']);
    expect(() => bus.subscribe('user.*', () => undefined, { durable: 'x' })).toThrow(/evt\.\* pattern/);
  });

  it('drops a repeated id, also when it would land on another queue member', async () => {
    const bus = new InProcessBus(capturedLogger().logger);
    const plain: string[] = [];
    const grouped: string[] = [];
    bus.subscribe('user.*', (m) => void plain.push(m.id));
    bus.subscribe('user.*', (m) => void grouped.push(m.id), { queue: 'q' });
    bus.subscribe('user.*', (m) => void grouped.push(m.id), { queue: 'q' });
    for (const id of ['a', 'a', 'b', 'a']) await bus.publish({ subject: 'user.u1', id, data: {} });
    await settle();
    expect(plain).toEqual(['a', 'b']);
    expect(grouped).toEqual(['a', 'b']);
  });

  it('stops delivering after unsubscribe', async () => {
    const bus = new InProcessBus(capturedLogger().logger);
    const got: string[] = [];
    const sub = bus.subscribe('user.*', (m) => void got.push(m.id));
    await bus.publish({ subject: 'user.u1', id: '1', data: {} });
    await settle();
    await sub.unsubscribe();
    await bus.publish({ subject: 'user.u1', id: '2', data: {} });
    await settle();
    expect(got).toEqual(['1']);
  });

  it('keeps a throwing handler from hurting the publisher or other subscribers, and logs it', async () => {
    const { logger, lines } = capturedLogger();
    const bus = new InProcessBus(logger);
    const got: string[] = [];
    bus.subscribe('user.*', () => {
      throw new Error('handler broke');
    });
    bus.subscribe('user.*', async () => Promise.reject(new Error('async handler broke')));
    bus.subscribe('user.*', (m) => void got.push(m.id));

    await expect(bus.publish({ subject: 'user.u1', id: '1', data: {} })).resolves.toBeUndefined();
    await bus.publish({ subject: 'user.u1', id: '2', data: {} });
    await settle();

    expect(got).toEqual(['1', '2']);
    const failures = lines.filter((l) => l.msg === 'a message handler failed');
    expect(failures).toHaveLength(4);
    expect(failures[0]).toMatchObject({ subject: 'user.u1', id: '1', err: { message: 'handler broke' } });
  });

  it('runs one subscriber’s handlers one at a time, in publish order, without making the publisher wait', async () => {
    const bus = new InProcessBus(capturedLogger().logger);
    const events: string[] = [];
    bus.subscribe('user.*', async (m) => {
      events.push(`start ${m.id}`);
      await new Promise((r) => setTimeout(r, 10));
      events.push(`end ${m.id}`);
    });
    await bus.publish({ subject: 'user.u1', id: '1', data: {} });
    await bus.publish({ subject: 'user.u1', id: '2', data: {} });
    events.push('published');
    await bus.close();
    expect(events).toEqual(['start 1', 'published', 'end 1', 'start 2', 'end 2']);
  });

  it('hands subscribers a JSON copy, as NATS would', async () => {
    const bus = new InProcessBus(capturedLogger().logger);
    const got: BusMessage[] = [];
    bus.subscribe('user.*', (m) => void got.push(m));
    const data = { at: new Date('2026-01-02T03:04:05Z'), nested: { n: 1 } };
    await bus.publish({ subject: 'user.u1', id: '1', data });
    data.nested.n = 2;
    await settle();
    expect(got[0]!.data).toEqual({ at: '2026-01-02T03:04:05.000Z', nested: { n: 1 } });
  });

  it('refuses to publish once closed', async () => {
    const bus = new InProcessBus(capturedLogger().logger);
    await bus.close();
    await expect(bus.publish({ subject: 'user.u1', id: '1', data: {} })).rejects.toThrow(/closed/);
  });

  it('answers a publish only once durable subscribers handled it, and fails it if one failed, so it is sent again', async () => {
    const bus = new InProcessBus(pino({ level: 'silent' }));
    const handled: string[] = [];
    let failNext = true;
    bus.subscribe(
      'evt.moderation.*',
      async (m) => {
        await new Promise((r) => setTimeout(r, 20));
        if (failNext) {
          failNext = false;
          throw new Error('reaction failed');
        }
        handled.push(m.id);
      },
      { durable: 'reactions' },
    );
    const message = { subject: 'evt.moderation.UserBanned', id: 'ban-1', data: {} };
    await expect(bus.publish(message)).rejects.toThrow('reaction failed');
    expect(handled).toEqual([]);
    await bus.publish(message); // the publisher's retry: delivered again, not dropped as a repeat
    expect(handled).toEqual(['ban-1']);
  });
});

describe('InProcessBus request/reply (the SFU RPC under npm start)', () => {
  it('answers from a server, shares a queue group round robin, and copies both ways as JSON', async () => {
    const bus = new InProcessBus(capturedLogger().logger);
    const served: string[] = [];
    bus.serve('sfu.rooms.create', async (data) => (served.push('a'), { by: 'a', got: data }), { queue: 'sfu' });
    bus.serve('sfu.rooms.create', async () => (served.push('b'), { by: 'b' }), { queue: 'sfu' });
    const sent = { roomId: 'r1', at: new Date(0) };
    const first = (await bus.request('sfu.rooms.create', sent)) as { by: string; got: unknown };
    await bus.request('sfu.rooms.create', sent);
    expect(served.sort()).toEqual(['a', 'b']);
    if (first.by === 'a') expect(first.got).toEqual({ roomId: 'r1', at: '1970-01-01T00:00:00.000Z' });
  });

  it('says nobody answers, and times out a server that never does', async () => {
    const bus = new InProcessBus(capturedLogger().logger);
    await expect(bus.request('sfu.node.x', {})).rejects.toThrow('nobody answers sfu.node.x');
    const stop = bus.serve('sfu.node.slow', () => new Promise(() => undefined));
    await expect(bus.request('sfu.node.slow', {}, { timeoutMs: 20 })).rejects.toThrow('within 20 ms');
    await stop.unsubscribe();
    await expect(bus.request('sfu.node.slow', {})).rejects.toThrow('nobody answers');
  });
});
