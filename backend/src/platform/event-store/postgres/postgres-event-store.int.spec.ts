import pg from 'pg';
import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { createDb, migrateToLatest } from '../../database/database.js';
import { createTestDatabase } from '../../../test-support/test-database.js';
import { describeEventStoreContract, newEvent, waitUntil } from '../event-store.contract.js';
import { PostgresEventStore } from './postgres-event-store.js';

describeEventStoreContract('Postgres', async () => {
  const database = await createTestDatabase();
  const logger = pino({ level: 'silent' });
  const db = createDb(database.url);
  await migrateToLatest(db, logger);
  const store = new PostgresEventStore(db, { connectionString: database.url, logger });
  return {
    store,
    dispose: async () => {
      await store.close();
      await db.destroy();
      await database.drop();
    },
  };
});

describe('Postgres event store: a transaction that commits late', () => {
  it('holds readers back while an earlier append is still open, then delivers both in order', async () => {
    const database = await createTestDatabase();
    const logger = pino({ level: 'silent' });
    const db = createDb(database.url);
    await migrateToLatest(db, logger);
    const store = new PostgresEventStore(db, { connectionString: database.url, logger, pollIntervalMs: 50 });
    const slow = new pg.Client({ connectionString: database.url });
    await slow.connect();
    const seen: string[] = [];
    const subscription = store.subscribeToAll({ onEvent: (e) => void seen.push(e.streamId) });
    try {
      // The slow writer takes its transaction id and sequence number first...
      await slow.query('begin');
      const early = newEvent();
      await slow.query(
        `insert into events (id, stream_id, revision, type, data, metadata) values ($1, 'early', 0, $2, '{}', $3)`,
        [early.id, early.type, JSON.stringify(early.metadata)],
      );
      // ...a later append commits before it...
      await store.append('late', [newEvent()], 'no-stream');
      await new Promise((r) => setTimeout(r, 300));
      // ...and is held back, or a reader that moved past it would never see the early one.
      expect(seen).toEqual([]);
      expect(await store.readAll()).toEqual([]);

      await slow.query('commit');
      await waitUntil(() => seen.length === 2, 5000);
      expect(seen).toEqual(['early', 'late']);
    } finally {
      await subscription.stop();
      await slow.end();
      await store.close();
      await db.destroy();
      await database.drop();
    }
  });
});

describe('Postgres event store: closing right after an append', () => {
  it("sends the append's notification before it closes, so a short-lived process (a CLI) warns of nothing", async () => {
    const database = await createTestDatabase();
    const warnings: string[] = [];
    const logger = pino({ level: 'warn' }, { write: (line: string) => void warnings.push(line) });
    const db = createDb(database.url, logger);
    const listener = new pg.Client({ connectionString: database.url });
    try {
      await migrateToLatest(db, logger);
      await listener.connect();
      const heard = new Promise<void>((resolve) => listener.on('notification', () => resolve()));
      await listener.query('LISTEN serendip_events');
      const store = new PostgresEventStore(db, { connectionString: database.url, logger });
      await store.append(`cli-${Date.now()}`, [newEvent()], 'no-stream');
      await store.close();
      await db.destroy();
      await Promise.race([heard, new Promise((_, fail) => setTimeout(() => fail(new Error('no NOTIFY heard')), 2000))]);
      await new Promise((resolve) => setTimeout(resolve, 20));
      expect(warnings).toEqual([]);
    } finally {
      await listener.end();
      await database.drop();
    }
  });
});
