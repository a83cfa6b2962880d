import { randomUUID } from 'node:crypto';
import { createServer, type Socket } from 'node:net';
import { Readable } from 'node:stream';
import {
  type AppendExpectedRevision,
  type EventData,
  type EventStoreDBClient,
  type Filter,
  type Position,
  type ReadPosition,
  type ReadRevision,
  type RecordedEvent as EsdbRecordedEvent,
  StreamNotFoundError,
  UnavailableError,
  WrongExpectedVersionError,
} from '@eventstore/db-client';
import { afterAll, describe, expect, it } from 'vitest';
import { comparePositions, type RecordedEvent } from '../event-store.js';
import { describeEventStoreContract, newEvent, waitUntil } from '../event-store.contract.js';
import { EsdbEventStore } from './esdb-event-store.js';

/**
 * The adapter's own logic (paging past system events, exclusive positions, one-at-a-time delivery, stop, errors)
 * against an in-memory stand-in for @eventstore/db-client that behaves as the client and server are documented
 * to: $all reads include their start position, subscriptions start after it, retried appends come back without
 * a position. It proves nothing about a real server: esdb-event-store.int.spec.ts does, given EVENTSTORE_URL.
 */
class FakeEventStoreDb {
  readonly log: EsdbRecordedEvent[] = [];
  private logEnd = 1_000n;
  private appends = 0;
  private readonly listeners = new Set<() => void>();
  readonly subscriptions: Readable[] = [];

  readonly client = {
    appendToStream: async (
      streamId: string,
      events: EventData[],
      options: { expectedRevision: AppendExpectedRevision },
    ) => {
      await Promise.resolve();
      const stream = this.stream(streamId);
      const expected = options.expectedRevision;
      const first = expected === 'no_stream' ? 0 : typeof expected === 'bigint' ? Number(expected) + 1 : undefined;
      const retried = first !== undefined && events.every((e, i) => stream[first + i]?.id === e.id);
      if (retried)
        return { success: true, nextExpectedRevision: BigInt(first + events.length - 1), position: undefined };
      const current = stream.length === 0 ? 'no_stream' : BigInt(stream.length - 1);
      if (expected !== 'any' && expected !== current) {
        throw new WrongExpectedVersionError(undefined, { streamName: streamId, expected, current });
      }
      const last = this.write(streamId, events);
      // The server's own bookkeeping and a foreign binary event land in $all between ours.
      if (++this.appends % 3 === 0) this.write('$stats-127.0.0.1:2113', [this.data('$statsCollected')]);
      if (this.appends % 5 === 0) this.write('legacy', [this.data('Blob', new Uint8Array([1]))]);
      return { success: true, nextExpectedRevision: last.revision, position: last.position };
    },
    readStream: (streamId: string, o: { direction?: string; fromRevision?: ReadRevision; maxCount?: number }) => {
      const stream = this.stream(streamId);
      const backwards = o.direction === 'backwards';
      const ordered = backwards ? [...stream].reverse() : stream;
      const from = o.fromRevision;
      const selected = ordered
        .filter((e) => typeof from !== 'bigint' || (backwards ? e.revision <= from : e.revision >= from))
        .slice(0, o.maxCount ?? Infinity);
      return Readable.from(
        (async function* () {
          if (stream.length === 0) throw new StreamNotFoundError(undefined, streamId);
          for (const event of selected) yield { event };
        })(),
      );
    },
    readAll: (o: { fromPosition: ReadPosition; maxCount: number }) =>
      Readable.from(
        this.log
          .filter((e) => o.fromPosition === 'start' || comparePositions(e.position!, o.fromPosition as Position) >= 0)
          .slice(0, o.maxCount)
          .map((event) => ({ event })),
      ),
    subscribeToAll: (o: { fromPosition: ReadPosition; filter?: Filter }) => this.subscribe(o.fromPosition, o.filter),
    dispose: async () => undefined,
  };

  store(): EsdbEventStore {
    return new EsdbEventStore(this.client as unknown as EventStoreDBClient);
  }

  private stream(streamId: string) {
    return this.log.filter((e) => e.streamId === streamId);
  }

  private data(type: string, binary?: Uint8Array): EventData {
    const contentType = binary ? 'application/octet-stream' : 'application/json';
    return { id: randomUUID(), type, contentType, data: binary ?? {}, metadata: undefined } as EventData;
  }

  private write(streamId: string, events: EventData[]): EsdbRecordedEvent {
    let revision = BigInt(this.stream(streamId).length);
    for (const e of events) {
      this.logEnd += 137n;
      this.log.push({
        streamId,
        id: e.id,
        type: e.type,
        isJson: e.contentType === 'application/json',
        revision: revision++,
        created: new Date(),
        // As the client hands it back: JSON parsed from bytes, a fresh object.
        data: e.contentType === 'application/json' ? JSON.parse(JSON.stringify(e.data)) : new Uint8Array(),
        metadata: e.metadata === undefined ? undefined : JSON.parse(JSON.stringify(e.metadata)),
        position: { commit: this.logEnd, prepare: this.logEnd - 7n },
      } as EsdbRecordedEvent);
    }
    for (const wake of [...this.listeners]) wake();
    return this.log[this.log.length - 1]!;
  }

  private subscribe(from: ReadPosition, filter: Filter | undefined) {
    const passes = (e: EsdbRecordedEvent) => !filter || !('regex' in filter) || new RegExp(filter.regex).test(e.type);
    let next =
      from === 'start' ? 0 : this.log.filter((e) => comparePositions(e.position!, from as Position) <= 0).length;
    let waiting = false;
    let ended = false;
    const pump = () => {
      if (ended) return;
      while (next < this.log.length) {
        const event = this.log[next++]!;
        if (passes(event) && !readable.push({ event })) return;
      }
      if (waiting || readable.destroyed) return;
      waiting = true;
      const wake = () => {
        this.listeners.delete(wake);
        waiting = false;
        pump();
      };
      this.listeners.add(wake);
    };
    const readable = new Readable({ objectMode: true, highWaterMark: 1, read: pump });
    // As the client does after cancelling the call: the stream ends.
    Object.assign(readable, {
      unsubscribe: async () => {
        if (!ended) readable.push(null);
        ended = true;
      },
    });
    this.subscriptions.push(readable);
    return readable;
  }
}

describeEventStoreContract('EventStoreDB adapter over an in-memory client (not a server)', async () => {
  const store = new FakeEventStoreDb().store();
  return { store, dispose: () => store.close() };
});

describe('EventStoreDB adapter over an in-memory client', () => {
  it('pages past system and binary events so a full page is never mistaken for the end of the log', async () => {
    const fake = new FakeEventStoreDb();
    const store = fake.store();
    for (let i = 0; i < 30; i++) await store.append(`user-${i}`, [newEvent()], 'no-stream');
    expect(fake.log.length).toBeGreaterThan(30);
    const pages: RecordedEvent[][] = [];
    let after;
    for (;;) {
      const page = await store.readAll({ after, maxCount: 4 });
      pages.push(page);
      if (page.length < 4) break;
      after = page[page.length - 1]!.position;
    }
    expect(pages.flat().map((e) => e.streamId)).toEqual(Array.from({ length: 30 }, (_, i) => `user-${i}`));
    expect(pages.slice(0, -1).every((p) => p.length === 4)).toBe(true);
  });

  it('shows subscribers only our events, not the server bookkeeping or binary events around them', async () => {
    const fake = new FakeEventStoreDb();
    const store = fake.store();
    for (let i = 0; i < 15; i++) await store.append(`user-${i}`, [newEvent()], 'no-stream');
    const seen: string[] = [];
    const subscription = store.subscribeToAll({ onEvent: (e) => void seen.push(e.streamId) });
    await waitUntil(() => seen.length >= 15, 5_000);
    await subscription.stop();
    expect(fake.log.some((e) => e.streamId === 'legacy') && fake.log.some((e) => e.type.startsWith('$'))).toBe(true);
    expect(seen).toEqual(Array.from({ length: 15 }, (_, i) => `user-${i}`));
  });

  it('answers a retried append with the first append’s revision and position', async () => {
    const store = new FakeEventStoreDb().store();
    const events = [newEvent(), newEvent()];
    const first = await store.append('command-1', events, 'no-stream');
    await store.append('command-1', [newEvent()], 1n);
    expect(await store.append('command-1', events, 'no-stream')).toEqual(first);
  });

  it('hands events to the handler one at a time, and stop() waits for the running one', async () => {
    const store = new FakeEventStoreDb().store();
    await store.append('slow', [newEvent(), newEvent(), newEvent()], 'no-stream');
    let running = 0;
    let mostAtOnce = 0;
    const handled: bigint[] = [];
    let release!: () => void;
    const subscription = store.subscribeToAll({
      onEvent: async (e) => {
        mostAtOnce = Math.max(mostAtOnce, ++running);
        if (e.revision === 2n) await new Promise<void>((r) => (release = r));
        else await new Promise((r) => setTimeout(r, 5));
        handled.push(e.revision);
        running--;
      },
    });
    await waitUntil(() => running === 1 && handled.length === 2, 5_000);
    let stopped = false;
    const stopping = subscription.stop().then(() => (stopped = true));
    await new Promise((r) => setTimeout(r, 20));
    expect(stopped).toBe(false);
    release();
    await stopping;
    await store.append('slow', [newEvent()], 2n);
    await new Promise((r) => setTimeout(r, 20));
    expect(handled).toEqual([0n, 1n, 2n]);
    expect(mostAtOnce).toBe(1);
  });

  it('reports a lost connection once, and not after stop()', async () => {
    const fake = new FakeEventStoreDb();
    const store = fake.store();
    const errors: unknown[] = [];
    store.subscribeToAll({ onEvent: () => undefined, onError: (e) => errors.push(e) });
    const quiet = store.subscribeToAll({ onEvent: () => undefined, onError: (e) => errors.push(e) });
    await quiet.stop();
    const lost = new UnavailableError(undefined, 'connection lost');
    for (const s of fake.subscriptions) s.destroy(lost);
    await waitUntil(() => errors.length > 0, 5_000);
    await new Promise((r) => setTimeout(r, 20));
    expect(errors).toEqual([lost]);
  });
});

describe('EsdbEventStore.connect', () => {
  const sockets = new Set<Socket>();
  const silent = createServer((socket) => sockets.add(socket));
  afterAll(() => {
    for (const socket of sockets) socket.destroy();
    silent.close();
  });

  it('gives up on a server that never answers, within the time given, and hides the password', async () => {
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const { port } = silent.address() as { port: number };
    const started = Date.now();
    const connecting = EsdbEventStore.connect(`esdb://admin:changeit@127.0.0.1:${port}?tls=false`, { timeoutMs: 300 });
    await expect(connecting).rejects.toThrow(`cannot reach EventStoreDB at esdb://***@127.0.0.1:${port}?tls=false`);
    await expect(connecting).rejects.not.toThrow(/changeit/);
    expect(Date.now() - started).toBeLessThan(5_000);
  });
});
