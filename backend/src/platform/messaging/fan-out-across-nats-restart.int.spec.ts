import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { IntegrationEvent } from '@serendip/proto';
import { connect } from 'nats';
import { pino } from 'pino';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { freePort } from '../../test-support/global-postgres.js';
import { createTestDatabase, type TestDatabase } from '../../test-support/test-database.js';
import { createDb, type Db, migrateToLatest } from '../database/database.js';
import type { RecordedEvent } from '../event-store/event-store.js';
import { PostgresEventStore } from '../event-store/postgres/postgres-event-store.js';
import { readCheckpoint } from '../projections/checkpoints.js';
import { INTEGRATION_EVENT_PUBLISHER, IntegrationEventPublisher } from './integration-event-publisher.js';
import { NatsBus } from './nats-bus.js';
import { EVENT_STREAM } from './nats-event-stream.js';
import { eventually } from '../../test-support/eventually.js';
import { TestNatsServer } from '../../test-support/nats-server.js';

// DESIGN.md "Fan-out: NATS": with a real nats-server, a subscriber receives every integration event exactly once
// (by id) across a NATS restart in the middle of a burst.
const BURST = 500;
const NATS_DOWN_FROM = 200;
const NATS_BACK_AT = 350;
const STREAMS = 10;

const logger = pino({ level: process.env.TEST_LOG_LEVEL ?? 'silent' });
let database: TestDatabase;
let db: Db;
let store: PostgresEventStore;
let dir: string;
let server: TestNatsServer;
const closing: (() => Promise<void>)[] = [];

beforeAll(async () => {
  database = await createTestDatabase();
  db = createDb(database.url);
  await migrateToLatest(db, logger);
  store = new PostgresEventStore(db, { connectionString: database.url, logger, pollIntervalMs: 100 });
  dir = await mkdtemp(path.join(os.tmpdir(), 'serendip-nats-restart-'));
  server = new TestNatsServer(await freePort(), dir);
  await server.start();
});

afterAll(async () => {
  for (const close of closing.reverse()) await close().catch(() => undefined);
  await store?.close();
  await db?.destroy();
  await database?.drop();
  await server?.stop();
  if (dir) await rm(dir, { recursive: true, force: true });
});

/** The ops context's contract: ServiceStarted goes out, ServiceHeartbeat stays inside. */
function mapOps(event: RecordedEvent): IntegrationEvent[] {
  if (event.type !== 'ServiceStarted') return [];
  return [{ id: event.id, context: 'ops', type: event.type, occurredAt: event.metadata.occurredAt, data: event.data }];
}

it('a durable subscriber gets every integration event exactly once, in order, across a NATS restart mid-burst', async () => {
  const subscriberBus = new NatsBus({ url: server.url, logger });
  const publisherBus = new NatsBus({ url: server.url, logger });
  closing.push(
    () => subscriberBus.close(),
    () => publisherBus.close(),
  );
  const handled: IntegrationEvent[] = [];
  const subscription = subscriberBus.subscribe('evt.ops.*', (m) => void handled.push(m.data as IntegrationEvent), {
    durable: 'fan-out-restart-test',
  });
  await subscription.ready;
  const publisher = new IntegrationEventPublisher({
    eventStore: store,
    db,
    bus: publisherBus,
    mappers: { ops: mapOps },
    logger,
  });
  closing.push(() => publisher.stop());
  await publisher.start();

  let appendedWhileDown = 0;
  let slowestAppendMs = 0;
  let downSince = 0;
  for (let i = 0; i < BURST; i++) {
    if (i === NATS_DOWN_FROM) {
      await eventually(
        () => handled.length > 50,
        10_000,
        () => `only ${handled.length} handled before the restart`,
      );
      await server.stop('SIGKILL');
      downSince = Date.now();
    }
    if (i === NATS_BACK_AT) {
      await new Promise((r) => setTimeout(r, Math.max(0, 1_000 - (Date.now() - downSince))));
      await server.start();
    }
    const type = i % 7 === 3 ? 'ServiceHeartbeat' : 'ServiceStarted';
    const started = Date.now();
    await store.append(`ops-instance-${i % STREAMS}`, [serviceEvent(type, i)], 'any');
    slowestAppendMs = Math.max(slowestAppendMs, Date.now() - started);
    if (i >= NATS_DOWN_FROM && i < NATS_BACK_AT) appendedWhileDown++;
  }

  const expected = (await readAllEvents()).filter((e) => e.type === 'ServiceStarted');
  expect(expected.length).toBeGreaterThan(400);
  await eventually(
    () => handled.length >= expected.length,
    40_000,
    () => `${handled.length} of ${expected.length} handled`,
  );
  await new Promise((r) => setTimeout(r, 300)); // a late repeat would land here

  // The write path never waited for NATS.
  expect(appendedWhileDown).toBe(NATS_BACK_AT - NATS_DOWN_FROM);
  expect(slowestAppendMs).toBeLessThan(1_000);
  // Every event exactly once, in the store's order (so in order per stream too).
  expect(handled.map((e) => e.id)).toEqual(expected.map((e) => e.id));
  // NATS itself stored each event once, though the publisher resent some after the restart.
  expect(await storedEventCount('evt.ops.*')).toBe(expected.length);

  await publisher.stop();
  const last = expected[expected.length - 1]!;
  const checkpoint = await readCheckpoint(db, INTEGRATION_EVENT_PUBLISHER);
  expect(checkpoint && checkpoint.commit >= last.position.commit).toBe(true);
}, 60_000);

function serviceEvent(type: string, i: number) {
  const metadata = {
    causationId: randomUUID(),
    correlationId: randomUUID(),
    actor: 'system',
    occurredAt: new Date().toISOString(),
    schemaVersion: 1,
  };
  return { id: randomUUID(), type, data: { instance: `instance-${i % STREAMS}`, roles: ['api'], n: i }, metadata };
}

async function readAllEvents(): Promise<RecordedEvent[]> {
  const all: RecordedEvent[] = [];
  for (;;) {
    const page = await store.readAll({ after: all[all.length - 1]?.position, maxCount: 500 });
    if (page.length === 0) return all;
    all.push(...page);
  }
}

async function storedEventCount(filter: string): Promise<number> {
  const nc = await connect({ servers: server.url });
  try {
    const info = await (await nc.jetstreamManager()).streams.info(EVENT_STREAM, { subjects_filter: filter });
    return Object.values(info.state.subjects ?? {}).reduce((a, b) => a + b, 0);
  } finally {
    await nc.close();
  }
}
