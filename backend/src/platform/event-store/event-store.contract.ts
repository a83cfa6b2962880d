import { randomBytes, randomUUID } from 'node:crypto';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../test-support/test-database.js';
import type { Decider, DomainEvent } from '../cqrs/decider.js';
import { executeDecider } from '../cqrs/execute-decider.js';
import { createDb, type Db, migrateToLatest } from '../database/database.js';
import { EventSchemas } from '../personal-data/event-schemas.js';
import { ERASED, PersonalDataVault } from '../personal-data/personal-data-vault.js';
import { ProtectingEventStore } from '../personal-data/protecting-event-store.js';
import {
  comparePositions,
  type EventStore,
  type NewEvent,
  type Position,
  type RecordedEvent,
  WrongExpectedVersion,
} from './event-store.js';

export interface StoreUnderTest {
  store: EventStore;
  dispose(): Promise<void>;
}

let counter = 0;
export function newEvent(type = 'Happened', data: unknown = { n: ++counter }): NewEvent {
  return {
    id: randomUUID(),
    type,
    data,
    metadata: {
      causationId: randomUUID(),
      correlationId: randomUUID(),
      actor: 'system',
      occurredAt: '2026-11-22T12:00:00.000Z',
      schemaVersion: 1,
    },
  };
}

/** Every adapter of the EventStore port passes this suite (DESIGN.md: same contract tests). */
export function describeEventStoreContract(adapter: string, open: () => Promise<StoreUnderTest>) {
  describe(`${adapter} event store contract`, () => {
    let subject: StoreUnderTest;
    let store: EventStore;
    // Subject keys live in Postgres whatever the event store is.
    let keysDatabase: TestDatabase;
    let keysDb: Db;
    const stream = (label: string) => `${label}-${randomUUID()}`;

    beforeAll(async () => {
      subject = await open();
      store = subject.store;
      keysDatabase = await createTestDatabase();
      keysDb = createDb(keysDatabase.url);
      await migrateToLatest(keysDb, pino({ level: 'silent' }));
    });
    afterAll(async () => {
      await subject?.dispose();
      await keysDb?.destroy();
      await keysDatabase?.drop();
    });

    it('starts a stream at revision 0 and refuses to start it twice', async () => {
      const id = stream('user');
      const first = await store.append(id, [newEvent(), newEvent()], 'no-stream');
      expect(first.nextExpectedRevision).toBe(1n);
      const again = store.append(id, [newEvent()], 'no-stream');
      await expect(again).rejects.toBeInstanceOf(WrongExpectedVersion);
      await expect(again).rejects.toMatchObject({ streamId: id, expected: 'no-stream', actual: 1n });
    });

    it('appends at the expected revision and refuses a stale one, naming the actual revision', async () => {
      const id = stream('ban');
      await store.append(id, [newEvent()], 'no-stream');
      expect((await store.append(id, [newEvent()], 0n)).nextExpectedRevision).toBe(1n);
      await expect(store.append(id, [newEvent()], 0n)).rejects.toMatchObject({
        name: 'WrongExpectedVersion',
        actual: 1n,
      });
      await expect(store.append(stream('none'), [newEvent()], 3n)).rejects.toMatchObject({ actual: 'no-stream' });
      expect((await store.append(id, [newEvent()], 'any')).nextExpectedRevision).toBe(2n);
    });

    it('keeps data and metadata exactly, and reads a stream both ways from a revision', async () => {
      const id = stream('report');
      const written = [
        newEvent('ReportFiled', { reason: 'spam', nested: { list: [1, 'two', null] } }),
        newEvent(),
        newEvent(),
      ];
      await store.append(id, written, 'no-stream');
      const forwards = await store.readStream(id);
      expect(forwards.map((e) => [e.id, e.type, e.data, e.metadata, e.revision, e.streamId])).toEqual(
        written.map((e, i) => [e.id, e.type, e.data, e.metadata, BigInt(i), id]),
      );
      expect((await store.readStream(id, { fromRevision: 1n })).map((e) => e.revision)).toEqual([1n, 2n]);
      expect((await store.readStream(id, { direction: 'backwards', maxCount: 2 })).map((e) => e.revision)).toEqual([
        2n,
        1n,
      ]);
      expect((await store.readStream(id, { direction: 'backwards', fromRevision: 1n })).map((e) => e.revision)).toEqual(
        [1n, 0n],
      );
      expect(await store.readStream(stream('missing'))).toEqual([]);
    });

    it('reads all events in order from a position', async () => {
      const id = stream('all');
      await store.append(id, [newEvent(), newEvent()], 'no-stream');
      await store.append(id, [newEvent()], 1n);
      const mine = await readWhenVisible(store, (e) => e.streamId === id, 3);
      expect(mine.map((e) => e.revision)).toEqual([0n, 1n, 2n]);
      const afterFirst = (await readEverything(store, mine[0]!.position)).filter((e) => e.streamId === id);
      expect(afterFirst.map((e) => e.revision)).toEqual([1n, 2n]);
    });

    it('reads only the types asked for, in order, counting only those toward maxCount', async () => {
      const id = stream('types');
      const rare = `Rare${randomUUID().slice(0, 8)}`;
      await store.append(id, [newEvent(), newEvent(rare), newEvent(), newEvent(), newEvent(rare)], 'no-stream');
      const start = (await readWhenVisible(store, (e) => e.streamId === id, 5))[0]!.position;
      const only = await store.readAll({ after: start, types: [rare], maxCount: 1 });
      expect(only.map((e) => [e.type, e.revision])).toEqual([[rare, 1n]]);
      const next = await store.readAll({ after: only[0]!.position, types: [rare], maxCount: 10 });
      expect(next.map((e) => [e.type, e.revision])).toEqual([[rare, 4n]]);
    });

    it('treats the same events appended again as done, writing nothing twice', async () => {
      const id = stream('command');
      const events = [newEvent(), newEvent()];
      const first = await store.append(id, events, 'no-stream');
      const retried = await store.append(id, events, 'no-stream');
      expect(retried.nextExpectedRevision).toBe(first.nextExpectedRevision);
      expect(await store.readStream(id)).toHaveLength(2);
    });

    it('lets exactly one of 50 concurrent appenders at one revision win', async () => {
      const id = stream('race');
      await store.append(id, [newEvent()], 'no-stream');
      const outcomes = await Promise.allSettled(Array.from({ length: 50 }, () => store.append(id, [newEvent()], 0n)));
      const won = outcomes.filter((o) => o.status === 'fulfilled');
      const lost = outcomes.filter((o): o is PromiseRejectedResult => o.status === 'rejected');
      expect(won).toHaveLength(1);
      expect(lost).toHaveLength(49);
      for (const o of lost) expect(o.reason).toBeInstanceOf(WrongExpectedVersion);
      expect((await store.readStream(id)).map((e) => e.revision)).toEqual([0n, 1n]);
    });

    it('never lets a live subscriber skip or repeat an event while 100 writers append', async () => {
      const prefix = stream('burst');
      const seen: RecordedEvent[] = [];
      const subscription = store.subscribeToAll({
        onEvent: (e) => void (e.streamId.startsWith(prefix) && seen.push(e)),
      });
      const writers = Array.from({ length: 100 }, async (_, w) => {
        let expected: bigint | 'no-stream' = 'no-stream';
        for (let i = 0; i < 5; i++) {
          // Half the writers share streams, so conflicts and retries happen too.
          const id = `${prefix}-${w % 50}`;
          for (;;) {
            try {
              expected = (await store.append(id, [newEvent()], w % 2 ? 'any' : expected)).nextExpectedRevision;
              break;
            } catch (error) {
              if (!(error instanceof WrongExpectedVersion)) throw error;
              expected = error.actual;
            }
          }
        }
      });
      await Promise.all(writers);
      await waitUntil(() => seen.length >= 500, 20_000);
      await subscription.stop();
      const final = (await readEverything(store)).filter((e) => e.streamId.startsWith(prefix));
      expect(final).toHaveLength(500);
      expect(seen.map((e) => e.id)).toEqual(final.map((e) => e.id));
      for (let i = 1; i < seen.length; i++) expect(comparePositions(seen[i - 1]!.position, seen[i]!.position)).toBe(-1);
    }, 60_000);

    it('resumes a subscription after a position with exactly what came after it', async () => {
      const id = stream('resume');
      await store.append(id, [newEvent(), newEvent(), newEvent()], 'no-stream');
      const after = (await readWhenVisible(store, (e) => e.streamId === id, 3))[0]!.position;
      const seen: bigint[] = [];
      const subscription = store.subscribeToAll({
        after,
        onEvent: (e) => void (e.streamId === id && seen.push(e.revision)),
      });
      await store.append(id, [newEvent()], 2n);
      await waitUntil(() => seen.length >= 3, 10_000);
      await subscription.stop();
      expect(seen).toEqual([1n, 2n, 3n]);
    });

    it('stops a subscription whose handler throws and says why', async () => {
      await store.append(stream('boom'), [newEvent()], 'no-stream');
      let subscription: { stop(): Promise<void> } | undefined;
      const error = await new Promise<unknown>((resolve) => {
        subscription = store.subscribeToAll({
          onEvent: () => {
            throw new Error('projection bug');
          },
          onError: resolve,
        });
      });
      await subscription?.stop();
      expect(error).toMatchObject({ message: 'projection bug' });
    });

    it('keeps personal data sealed in the store and reads it as erased once the person is forgotten', async () => {
      const schemas = new EventSchemas().register<{ userId: string; emailAddress: string }>({
        type: 'EmailChanged',
        schemaVersion: 1,
        subject: (d) => d.userId,
        personal: ['emailAddress'],
      });
      const vault = new PersonalDataVault(keysDb, randomBytes(32));
      const protectedStore = new ProtectingEventStore(store, schemas, vault);
      const userId = randomUUID();
      const id = stream('user');
      await protectedStore.append(
        id,
        [newEvent('EmailChanged', { userId, emailAddress: 'ada@example.com' })],
        'no-stream',
      );

      const [raw] = await store.readStream(id);
      expect(JSON.stringify(raw!.data)).not.toContain('ada@example.com');
      expect((await protectedStore.readStream(id))[0]!.data).toEqual({ userId, emailAddress: 'ada@example.com' });
      await vault.forgetSubject(userId);
      expect((await protectedStore.readStream(id))[0]!.data).toEqual({ userId, emailAddress: ERASED });
    });

    it('stores a command retried with the same id once', async () => {
      const schemas = new EventSchemas().register({ type: 'PostLiked', schemaVersion: 1 });
      const likeOnce: Decider<{ by: string }, string[], DomainEvent<'PostLiked', { by: string }>> = {
        initialState: [],
        evolve: (state, e) => [...state, e.data.by],
        decide: (c, state) => (state.includes(c.by) ? [] : [{ type: 'PostLiked', data: { by: c.by } }]),
      };
      const id = stream('post');
      const metadata = { commandId: randomUUID(), correlationId: randomUUID(), actor: 'u1', now: new Date() };
      const first = await executeDecider({ store, schemas }, id, likeOnce, { by: 'ada' }, metadata);
      const retried = await executeDecider({ store, schemas }, id, likeOnce, { by: 'ada' }, metadata);
      expect(retried).toMatchObject({ alreadyHandled: true, position: first.position });
      expect(await store.readStream(id)).toHaveLength(1);
    });
  });
}

export async function readEverything(store: EventStore, after?: Position): Promise<RecordedEvent[]> {
  const out: RecordedEvent[] = [];
  let position = after;
  for (;;) {
    const batch = await store.readAll({ after: position, maxCount: 1000 });
    out.push(...batch);
    if (batch.length < 1000) return out;
    position = batch[batch.length - 1]!.position;
  }
}

/**
 * What `pick` picks of the whole log once `count` of it shows. A log read shows only transactions older than every one
 * still running in the cluster (another test's, say), so what was just appended may take a moment to show.
 */
async function readWhenVisible(
  store: EventStore,
  pick: (event: RecordedEvent) => boolean,
  count: number,
): Promise<RecordedEvent[]> {
  const until = Date.now() + 10_000;
  for (;;) {
    const picked = (await readEverything(store)).filter(pick);
    if (picked.length >= count || Date.now() > until) return picked;
    await new Promise((r) => setTimeout(r, 20));
  }
}

export async function waitUntil(condition: () => boolean, timeoutMs: number): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > until) throw new Error(`condition not met within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 10));
  }
}
