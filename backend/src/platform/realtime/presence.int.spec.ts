import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../test-support/test-database.js';
import { createDb, type Db, migrateToLatest } from '../database/database.js';
import { Presence } from './presence.js';

describe('Presence: who is online across nodes (spec 2 "Admin dashboard": online now)', () => {
  let database: TestDatabase;
  let db: Db;

  beforeAll(async () => {
    database = await createTestDatabase();
    db = createDb(database.url);
    await migrateToLatest(db, pino({ level: 'silent' }));
  });
  afterAll(async () => {
    await db?.destroy();
    await database?.drop();
  });

  it('counts a user once however many nodes and sockets hold them; a node that stops beating drops out within seconds', async () => {
    const one = new Presence(db);
    const two = new Presence(db);
    await one.onApplicationBootstrap();
    await two.onApplicationBootstrap();

    const adaOnOne = one.join('ada');
    const adaAgainOnOne = one.join('ada');
    one.join('bob');
    two.join('ada');
    two.join('cleo');
    let online = 0;
    const poll = async (expected: number, timeoutMs: number) => {
      const until = Date.now() + timeoutMs;
      while ((online = await one.count()) !== expected && Date.now() < until)
        await new Promise((r) => setTimeout(r, 100));
      expect(online).toBe(expected);
    };
    await poll(3, 2_000);

    // One of Ada's two sockets on node one closes: she is still online.
    adaOnOne();
    await new Promise((r) => setTimeout(r, 300));
    expect(await two.count()).toBe(3);
    // Her last socket there closes, and Cleo's node still holds her.
    adaAgainOnOne();
    await poll(3, 2_000);

    // Node two dies without a word (no shutdown, its rows stay): its share (Ada, Cleo) expires with its heartbeat.
    clearInterval((two as unknown as { timer: ReturnType<typeof setInterval> }).timer);
    await poll(1, 10_000);

    await one.onApplicationShutdown();
    expect(await two.count()).toBe(0);
  }, 20_000);
});
