import { randomUUID } from 'node:crypto';
import { type Kysely, sql } from 'kysely';
import { pino } from 'pino';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../test-support/test-database.js';
import { createDb, type Db, migrateToLatest } from '../database/database.js';
import type { Database } from '../database/schema.js';
import { newEvent } from '../event-store/event-store.contract.js';
import { type RecordedEvent, START } from '../event-store/event-store.js';
import { PostgresEventStore } from '../event-store/postgres/postgres-event-store.js';
import { readCheckpoint } from './checkpoints.js';
import { applyToProjection, type Projection } from './projection.js';
import { ProjectionEngine, ReadModelBehind } from './projection-engine.js';
import { rebuildProjection } from './rebuild-projection.js';

/** A read model for tests: one row per Counted event, keyed by event id (a duplicate would fail loudly). */
function counter(name: string, failWhile: () => boolean = () => false): Projection {
  return {
    name,
    canHandle: (e) => e.type === 'Counted',
    async apply(trx: Kysely<Database>, event: RecordedEvent) {
      if (failWhile()) throw new Error(`${name} is broken`);
      await sql`insert into test_counts (projection, event_id) values (${name}, ${event.id})`.execute(trx);
    },
    async reset(trx) {
      await sql`delete from test_counts where projection = ${name}`.execute(trx);
    },
  };
}

describe('projection engine', () => {
  let database: TestDatabase;
  let db: Db;
  let store: PostgresEventStore;
  const logger = pino({ level: 'silent' });
  const count = async (projection: string) =>
    Number(
      (await sql<{ n: string }>`select count(*) as n from test_counts where projection = ${projection}`.execute(db))
        .rows[0]!.n,
    );

  const countedInLog = async () =>
    Number((await sql<{ n: string }>`select count(*) as n from events where type = 'Counted'`.execute(db)).rows[0]!.n);

  beforeAll(async () => {
    database = await createTestDatabase();
    db = createDb(database.url);
    await migrateToLatest(db, logger);
    await sql`create table test_counts (projection text not null, event_id uuid not null, primary key (projection, event_id))`.execute(
      db,
    );
    store = new PostgresEventStore(db, { connectionString: database.url, logger, pollIntervalMs: 100 });
  });
  afterAll(async () => {
    await store?.close();
    await db?.destroy();
    await database?.drop();
  });
  beforeEach(async () => {
    await sql`delete from test_counts`.execute(db);
  });

  async function appendCounted(n: number) {
    let last;
    for (let i = 0; i < n; i++)
      last = await store.append(`count-${randomUUID()}`, [newEvent('Counted'), newEvent('Other')], 'no-stream');
    return last!.position;
  }

  it('applies each event once, moving rows and checkpoint together, and resumes after a restart without repeats', async () => {
    const name = `p-${randomUUID()}`;
    const first = new ProjectionEngine(db, store, [counter(name)], logger);
    await first.start();
    const mid = await appendCounted(30);
    await first.caughtUpTo(mid);
    await first.stop();
    expect(await count(name)).toBe(30);
    expect(await readCheckpoint(db, name)).toEqual(mid);

    const end = await appendCounted(20);
    const second = new ProjectionEngine(db, store, [counter(name)], logger);
    await second.start();
    await second.caughtUpTo(end);
    await second.stop();
    expect(await count(name)).toBe(50); // primary key: a repeat would have thrown
  });

  it('keeps the others going while one projection fails, then lets it catch up on its own', async () => {
    const [healthy, flaky] = [`ok-${randomUUID()}`, `flaky-${randomUUID()}`];
    let broken = true;
    // New projections start from the beginning of the log, which earlier tests have filled too.
    const already = await countedInLog();
    const engine = new ProjectionEngine(db, store, [counter(healthy), counter(flaky, () => broken)], logger);
    await engine.start();
    const position = await appendCounted(10);
    await engine.caughtUpTo(position);
    expect(await count(healthy)).toBe(already + 10);
    expect(await count(flaky)).toBe(0);

    broken = false;
    await expect.poll(() => count(flaky), { timeout: 10_000 }).toBe(already + 10);
    const later = await appendCounted(5);
    await engine.caughtUpTo(later);
    await expect.poll(() => count(flaky), { timeout: 5_000 }).toBe(already + 15);
    await engine.stop();
    expect(await count(healthy)).toBe(already + 15);
  });

  it('makes a reader of one read model wait while that projection retries, then answers from what it took in', async () => {
    const [healthy, flaky] = [`ok-${randomUUID()}`, `flaky-${randomUUID()}`];
    let broken = true;
    const engine = new ProjectionEngine(db, store, [counter(healthy), counter(flaky, () => broken)], logger);
    await engine.start();
    const position = await appendCounted(3);
    await engine.caughtUpTo(position, 10_000, [healthy]);
    // The failing read model has not seen the write: waiting for it must not say it has (a sign-up answered "no
    // such account" after a Postgres restart did), but a 503 that says the change is saved.
    const refused = await engine.caughtUpTo(position, 300, [flaky]).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(ReadModelBehind);
    expect(refused).toMatchObject({ kind: 'unavailable', retryAfterSeconds: 5 });

    const waiting = engine.caughtUpTo(position, 15_000, [flaky]);
    broken = false;
    await waiting;
    expect(await count(flaky)).toBe(await countedInLog());
    await engine.stop();
  });

  it('never keeps half a batch: a projection failing mid-batch leaves no rows and no checkpoint move', async () => {
    const name = `half-${randomUUID()}`;
    let applied = 0;
    const breaksOnThird: Projection = {
      ...counter(name),
      async apply(trx, event) {
        if (++applied === 3) throw new Error('third event breaks it');
        await sql`insert into test_counts (projection, event_id) values (${name}, ${event.id})`.execute(trx);
      },
    };
    await appendCounted(5);
    const events = (await store.readAll({ maxCount: 10_000 })).filter((e) => e.type === 'Counted');
    await expect(applyToProjection(db, breaksOnThird, START, events)).rejects.toThrow('third event breaks it');
    expect(await count(name)).toBe(0);
    expect(await readCheckpoint(db, name)).toBeUndefined();
  });

  it('keeps projecting after its database connections were cut (a Postgres restart)', async () => {
    const name = `cut-${randomUUID()}`;
    const engine = new ProjectionEngine(db, store, [counter(name)], logger);
    await engine.start();
    await engine.caughtUpTo(await appendCounted(3));
    const before = await count(name);
    await sql`select pg_terminate_backend(pid) from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid()`.execute(
      db,
    );
    // The pools learn of their dead connections a moment later; a write in that moment fails like any other
    // and is simply tried again, as a client would.
    await new Promise((r) => setTimeout(r, 300));
    let after;
    for (let attempt = 1; !after; attempt++) {
      after = await appendCounted(3).catch((error: { code?: string }) => {
        if (error.code !== '57P01' || attempt >= 5) throw error;
        return undefined;
      });
    }
    await engine.caughtUpTo(after, 20_000);
    // Every Counted event in the log, including those written after the cut, is in the read model.
    expect(await count(name)).toBe(await countedInLog());
    expect(await count(name)).toBeGreaterThanOrEqual(before + 3);
    await engine.stop();
  });

  it('rebuilds a read model from the whole log, equal to what the live engine built', async () => {
    const name = `r-${randomUUID()}`;
    const engine = new ProjectionEngine(db, store, [counter(name)], logger);
    await engine.start();
    await engine.caughtUpTo(await appendCounted(25));
    await engine.stop();
    const rows = async () =>
      (
        await sql<{
          event_id: string;
        }>`select event_id from test_counts where projection = ${name} order by event_id`.execute(db)
      ).rows;
    const live = await rows();

    let progress = 0;
    const { events } = await rebuildProjection(db, store, counter(name), (n) => (progress = n));
    expect(events).toBeGreaterThanOrEqual(50);
    expect(progress).toBe(events);
    expect(await rows()).toEqual(live);
  });
});
