import { randomUUID } from 'node:crypto';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../test-support/test-database.js';
import { createDb, type Db, migrateToLatest } from '../database/database.js';
import { PostgresEventStore } from '../event-store/postgres/postgres-event-store.js';
import { EventSchemas } from '../personal-data/event-schemas.js';
import { type Decider, type DomainEvent, DomainError } from './decider.js';
import { type CommandMetadata, executeDecider } from './execute-decider.js';

type Liked = DomainEvent<'PostLiked', { by: string }>;
type Like = { by: string };
/** A post's likes: one per person, which needs the state to be current when deciding. */
const likes: Decider<Like, Set<string>, Liked> = {
  initialState: new Set(),
  evolve: (state, e) => new Set([...state, e.data.by]),
  decide: (command, state) => {
    if (state.has(command.by)) throw new DomainError('already-liked', `${command.by} already likes this post`);
    return [{ type: 'PostLiked', data: { by: command.by } }];
  },
};

describe('executing a command through a decider', () => {
  let database: TestDatabase;
  let db: Db;
  let store: PostgresEventStore;
  const schemas = new EventSchemas().register({ type: 'PostLiked', schemaVersion: 1 });
  const meta = (commandId = randomUUID()): CommandMetadata => ({
    commandId,
    correlationId: randomUUID(),
    actor: 'user-1',
    now: new Date('2026-11-22T12:00:00Z'),
  });

  beforeAll(async () => {
    database = await createTestDatabase();
    db = createDb(database.url);
    await migrateToLatest(db, pino({ level: 'silent' }));
    store = new PostgresEventStore(db, { connectionString: database.url, logger: pino({ level: 'silent' }) });
  });
  afterAll(async () => {
    await store?.close();
    await db?.destroy();
    await database?.drop();
  });

  it('stores what was decided with the metadata the audit needs', async () => {
    const stream = `post-${randomUUID()}`;
    const metadata = meta();
    const result = await executeDecider({ store, schemas }, stream, likes, { by: 'ada' }, metadata);
    expect(result).toMatchObject({ alreadyHandled: false, nextExpectedRevision: 0n, events: [{ type: 'PostLiked' }] });
    const [stored] = await store.readStream(stream);
    expect(stored!.metadata).toEqual({
      causationId: metadata.commandId,
      correlationId: metadata.correlationId,
      actor: 'user-1',
      occurredAt: '2026-11-22T12:00:00.000Z',
      schemaVersion: 1,
    });
  });

  it('answers a retried command (same id) as the first time and appends nothing twice', async () => {
    const stream = `post-${randomUUID()}`;
    const metadata = meta();
    const first = await executeDecider({ store, schemas }, stream, likes, { by: 'ada' }, metadata);
    // Without idempotency the decider would refuse this ("already likes") or store a second like.
    const again = await executeDecider({ store, schemas }, stream, likes, { by: 'ada' }, metadata);
    expect(again).toMatchObject({ alreadyHandled: true, events: first.events, position: first.position });
    expect(await store.readStream(stream)).toHaveLength(1);
  });

  it('retries the same command sent twice at once, storing it once', async () => {
    const stream = `post-${randomUUID()}`;
    const metadata = meta();
    const results = await Promise.all(
      [1, 2, 3].map(() => executeDecider({ store, schemas }, stream, likes, { by: 'ada' }, metadata)),
    );
    // Every caller gets the same answer (the store recognises the repeated event ids), and one like is stored.
    for (const r of results) expect(r.position).toEqual(results[0]!.position);
    expect(await store.readStream(stream)).toHaveLength(1);
  });

  it('decides again on fresh state when another writer got there first', async () => {
    const stream = `post-${randomUUID()}`;
    const people = ['ada', 'grace', 'alan', 'edsger'];
    await Promise.all(people.map((by) => executeDecider({ store, schemas }, stream, likes, { by }, meta())));
    expect((await store.readStream(stream)).map((e) => (e.data as { by: string }).by).sort()).toEqual(
      [...people].sort(),
    );
  });

  it('lets a domain rule refuse, storing nothing', async () => {
    const stream = `post-${randomUUID()}`;
    await executeDecider({ store, schemas }, stream, likes, { by: 'ada' }, meta());
    await expect(executeDecider({ store, schemas }, stream, likes, { by: 'ada' }, meta())).rejects.toMatchObject({
      code: 'already-liked',
    });
    expect(await store.readStream(stream)).toHaveLength(1);
  });
});
