import { randomUUID } from 'node:crypto';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../test-support/test-database.js';
import { createDb, type Db, migrateToLatest } from '../database/database.js';
import type { RecordedEvent } from '../event-store/event-store.js';
import { PostgresEventStore } from '../event-store/postgres/postgres-event-store.js';
import { readCheckpoint } from '../projections/checkpoints.js';
import { InProcessBus } from './in-process-bus.js';
import { IntegrationEventPublisher, type IntegrationEventMapper } from './integration-event-publisher.js';
import type { BusMessage } from './message-bus.js';
import { eventually } from '../../test-support/eventually.js';

const logs: Record<string, unknown>[] = [];
const logger = pino({ level: 'warn' }, { write: (line: string) => void logs.push(JSON.parse(line)) });
let database: TestDatabase;
let db: Db;
let store: PostgresEventStore;

beforeAll(async () => {
  database = await createTestDatabase();
  db = createDb(database.url);
  await migrateToLatest(db, logger);
  store = new PostgresEventStore(db, { connectionString: database.url, logger, pollIntervalMs: 100 });
});

afterAll(async () => {
  await store?.close();
  await db?.destroy();
  await database?.drop();
});

/** Maps `<prefix>-…` streams only, so each test sees its own events. */
function mapperFor(prefix: string): IntegrationEventMapper {
  return (event: RecordedEvent) =>
    event.streamId.startsWith(`${prefix}-`) && event.type !== 'Internal'
      ? [{ id: event.id, context: 'ops', type: event.type, occurredAt: event.metadata.occurredAt, data: event.data }]
      : [];
}

async function append(streamId: string, type: string, n: number): Promise<string> {
  const id = randomUUID();
  const metadata = {
    causationId: id,
    correlationId: id,
    actor: 'system',
    occurredAt: new Date().toISOString(),
    schemaVersion: 1,
  };
  await store.append(streamId, [{ id, type, data: { n }, metadata }], 'any');
  return id;
}

describe('IntegrationEventPublisher (Postgres event store, in-process bus)', () => {
  it('publishes mapped events on evt.<context>.<type> by id, passes over the rest, and resumes from its checkpoint', async () => {
    const bus = new InProcessBus(logger);
    const got: BusMessage[] = [];
    bus.subscribe('evt.>', (m) => void got.push(m));
    const options = {
      eventStore: store,
      db,
      bus,
      mappers: { ops: mapperFor('resume') },
      logger,
      checkpointName: 'resume-test',
    };

    const first = new IntegrationEventPublisher(options);
    await first.start();
    const started = await append('resume-1', 'ServiceStarted', 1);
    await append('resume-1', 'Internal', 2);
    const stopped = await append('resume-1', 'ServiceStopped', 3);
    await eventually(() => got.length === 2, 5_000);
    await first.stop();
    const checkpoint = await readCheckpoint(db, 'resume-test');
    expect(checkpoint).toEqual(first.position);

    const later = await append('resume-2', 'ServiceStarted', 4);
    const second = new IntegrationEventPublisher(options);
    await second.start();
    await eventually(() => got.length === 3, 5_000);
    await new Promise((r) => setTimeout(r, 300)); // nothing before the checkpoint comes again
    await second.stop();

    expect(got.map((m) => [m.subject, m.id])).toEqual([
      ['evt.ops.ServiceStarted', started],
      ['evt.ops.ServiceStopped', stopped],
      ['evt.ops.ServiceStarted', later],
    ]);
    expect(got[0]!.data).toMatchObject({ id: started, context: 'ops', type: 'ServiceStarted', data: { n: 1 } });
    await bus.close();
  });

  it('holds publication on a failing mapper and retries it, never skipping the event', async () => {
    const bus = new InProcessBus(logger);
    const got: string[] = [];
    bus.subscribe('evt.>', (m) => void got.push(m.id));
    const map = mapperFor('flaky');
    let failures = 0;
    const flaky: IntegrationEventMapper = (event) => {
      if ((event.data as { n: number }).n === 1 && failures++ < 2) throw new Error('mapper not ready');
      return map(event);
    };
    const publisher = new IntegrationEventPublisher({
      eventStore: store,
      db,
      bus,
      mappers: { ops: flaky },
      logger,
      checkpointName: 'flaky-test',
    });
    await publisher.start();
    const ids = [await append('flaky-1', 'ServiceStarted', 1), await append('flaky-1', 'ServiceStarted', 2)];
    await eventually(() => got.length === 2, 5_000);
    await publisher.stop();
    expect(got).toEqual(ids);
    expect(logs.filter((l) => l.msg === 'integration events: publish failed; retrying')).toHaveLength(2);
  });

  it('refuses a mapper that speaks for another context', async () => {
    const bus = new InProcessBus(logger);
    const got: string[] = [];
    bus.subscribe('evt.>', (m) => void got.push(m.id));
    const wrong: IntegrationEventMapper = (event) =>
      event.streamId.startsWith('wrong-') ? [{ ...mapperFor('wrong')(event)[0]!, context: 'moderation' }] : [];
    const publisher = new IntegrationEventPublisher({
      eventStore: store,
      db,
      bus,
      mappers: { ops: wrong },
      logger,
      checkpointName: 'wrong-test',
    });
    await publisher.start();
    await append('wrong-1', 'ServiceStarted', 1);
    await eventually(
      () => logs.some((l) => String((l.err as { message?: string })?.message).includes('mapper made')),
      5_000,
    );
    await publisher.stop();
    expect(got).toEqual([]);
  });
});
