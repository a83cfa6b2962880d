/**
 * `npm run bench:event-store -- --json`: the Postgres event store against plain INSERTs on the same Postgres
 * (DATABASE_URL, or an embedded one), in one run. Goals: appendPerSec >= 0.5 x rawInsertPerSec,
 * projectionLagP99Ms <= 100 at 1,000 events/s, replayPerSec >= 20,000 over a 200,000-event log.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { createDb, type Db, migrateToLatest } from '@serendip/backend/platform/database/database.js';
import type { NewEvent } from '@serendip/backend/platform/event-store/event-store.js';
import { PostgresEventStore } from '@serendip/backend/platform/event-store/postgres/postgres-event-store.js';
import { EventSchemas } from '@serendip/backend/platform/personal-data/event-schemas.js';
import { PersonalDataVault } from '@serendip/backend/platform/personal-data/personal-data-vault.js';
import { ProtectingEventStore } from '@serendip/backend/platform/personal-data/protecting-event-store.js';
import type { Projection } from '@serendip/backend/platform/projections/projection.js';
import { ProjectionEngine } from '@serendip/backend/platform/projections/projection-engine.js';
import { rebuildProjection } from '@serendip/backend/platform/projections/rebuild-projection.js';
import { sql } from 'kysely';
import pg from 'pg';
import { pino } from 'pino';
import { benchDatabase } from './bench-database.js';
import { report, summarize } from './harness.js';

const WRITERS = 32;
const APPENDS = 20_000;
const LAG_RATE_PER_SEC = 1000;
const LAG_SECONDS = 5;
const REPLAY_EVENTS = 200_000;
const logger = pino({ level: 'error' });

const event = (type = 'BenchHappened'): NewEvent => ({
  id: randomUUID(),
  type,
  data: { note: 'a small payload, like most of ours', n: 1 },
  metadata: {
    causationId: randomUUID(),
    correlationId: randomUUID(),
    actor: 'bench',
    occurredAt: new Date().toISOString(),
    schemaVersion: 1,
  },
});

/** A read model with one row per event, written in one statement per batch. */
const benchProjection: Projection = {
  name: 'bench.rows',
  canHandle: (e) => e.type === 'BenchHappened' || e.type === 'BenchReplayed',
  apply: async (trx, e) => void (await sql`insert into bench_rows (event_id) values (${e.id})`.execute(trx)),
  applyBatch: async (trx, events) =>
    void (await sql`insert into bench_rows (event_id) select unnest(${events.map((e) => e.id)}::uuid[])`.execute(trx)),
  reset: async (trx) => void (await sql`truncate bench_rows`.execute(trx)),
};

async function rawInsertPerSec(url: string): Promise<number> {
  const pool = new pg.Pool({ connectionString: url, max: WRITERS });
  await pool.query('create table bench_raw (id bigserial primary key, data jsonb not null)');
  let left = APPENDS;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: WRITERS }, async () => {
      while (left-- > 0) await pool.query('insert into bench_raw (data) values ($1)', [JSON.stringify(event().data)]);
    }),
  );
  const perSec = Math.round(APPENDS / ((performance.now() - started) / 1000));
  await pool.end();
  return perSec;
}

async function appends(store: PostgresEventStore) {
  const latencies: number[] = [];
  let left = APPENDS;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: WRITERS }, async () => {
      while (left-- > 0) {
        const t = performance.now();
        await store.append(`bench-${randomUUID()}`, [event()], 'no-stream');
        latencies.push(performance.now() - t);
      }
    }),
  );
  return {
    appendPerSec: Math.round(APPENDS / ((performance.now() - started) / 1000)),
    appendP99Ms: summarize(latencies).p99Ms,
  };
}

async function projectionLag(db: Db, store: PostgresEventStore) {
  const engine = new ProjectionEngine(db, store, [benchProjection], logger);
  await engine.start();
  // Measure steady state: first let the projection take in what the append phase wrote.
  await engine.caughtUpTo((await store.append(`lag-start-${randomUUID()}`, [event()], 'no-stream')).position, 120_000);
  const lags: Promise<number>[] = [];
  const interval = 1000 / LAG_RATE_PER_SEC;
  const started = performance.now();
  for (let i = 0; i < LAG_RATE_PER_SEC * LAG_SECONDS; i++) {
    const due = started + i * interval;
    const wait = due - performance.now();
    if (wait > 1) await new Promise((r) => setTimeout(r, wait));
    lags.push(
      store.append(`lag-${randomUUID()}`, [event()], 'no-stream').then(async ({ position }) => {
        const committed = performance.now();
        await engine.caughtUpTo(position);
        return performance.now() - committed;
      }),
    );
  }
  const samples = await Promise.all(lags);
  await engine.stop();
  return { projectionLagP99Ms: summarize(samples).p99Ms, projectionLagP50Ms: summarize(samples).p50Ms };
}

async function replay(db: Db, adapter: PostgresEventStore) {
  // As `projections:rebuild` reads it: through the store that opens personal fields.
  const schemas = new EventSchemas().register(
    { type: 'BenchHappened', schemaVersion: 1 },
    { type: 'BenchReplayed', schemaVersion: 1 },
  );
  const store = new ProtectingEventStore(adapter, schemas, new PersonalDataVault(db, randomBytes(32)));
  // The log is filled with SQL (what is measured is the replay, not how the log was written).
  const have = Number((await sql<{ n: string }>`select count(*) as n from events`.execute(db)).rows[0]!.n);
  await sql`
    insert into events (id, stream_id, revision, type, data, metadata)
    select gen_random_uuid(), 'replay-' || g, 0, 'BenchReplayed', '{"note":"replayed","n":1}'::jsonb,
           '{"causationId":"c","correlationId":"c","actor":"bench","occurredAt":"2026-11-22T00:00:00Z","schemaVersion":1}'::jsonb
    from generate_series(1, ${REPLAY_EVENTS - have}) g`.execute(db);
  const started = performance.now();
  const { events } = await rebuildProjection(db, store, benchProjection);
  return { replayEvents: events, replayPerSec: Math.round(events / ((performance.now() - started) / 1000)) };
}

async function main() {
  const database = await benchDatabase('event_store', 54399, logger);
  const benchUrl = database.url;
  const db = createDb(benchUrl, logger, WRITERS);
  const store = new PostgresEventStore(db, { connectionString: benchUrl, logger, poolSize: WRITERS });
  try {
    await migrateToLatest(db, logger);
    await sql`create table bench_rows (event_id uuid primary key)`.execute(db);
    const rawPerSec = await rawInsertPerSec(benchUrl);
    const appended = await appends(store);
    const lag = await projectionLag(db, store);
    const replayed = await replay(db, store);
    report({
      rawInsertPerSec: rawPerSec,
      ...appended,
      appendVsRaw: Math.round((appended.appendPerSec / rawPerSec) * 100) / 100,
      ...lag,
      ...replayed,
      writers: WRITERS,
      appends: APPENDS,
      lagRatePerSec: LAG_RATE_PER_SEC,
      postgres: database.postgres,
    });
  } finally {
    await store.close();
    await db.destroy();
    await database.drop();
  }
}

void main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
