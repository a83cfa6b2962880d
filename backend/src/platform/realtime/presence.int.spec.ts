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

    const adaOnOne = one.join('ada').leave;
    const adaAgainOnOne = one.join('ada').leave;
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

  it('a user with two tabs is online while either is in sight, away once both are hidden, on any node; a dropped node takes its tabs with it', async () => {
    const one = new Presence(db);
    const two = new Presence(db);
    await one.onApplicationBootstrap();
    await two.onApplicationBootstrap();
    const seen = async (expected: unknown, timeoutMs = 3_000) => {
      const until = Date.now() + timeoutMs;
      let users = await one.users();
      while (JSON.stringify(users) !== JSON.stringify(expected) && Date.now() < until) {
        await new Promise((r) => setTimeout(r, 100));
        users = await one.users();
      }
      expect(users).toEqual(expected);
    };

    // Grace on her desktop (node one) and her phone (node two); Hal's only tab is on node two.
    const tick = () => new Promise((r) => setTimeout(r, 20));
    const desk = one.join('grace', 'desktop');
    await tick();
    const phone = two.join('grace', 'mobile');
    const hal = two.join('hal', 'desktop');
    // Both in sight: the latest one says her device.
    await seen([
      { userId: 'grace', device: 'mobile', status: 'online' },
      { userId: 'hal', device: 'desktop', status: 'online' },
    ]);

    // Her phone's page hides: the desktop still shows her, online.
    phone.set('away');
    hal.set('away');
    await seen([
      { userId: 'grace', device: 'desktop', status: 'online' },
      { userId: 'hal', device: 'desktop', status: 'away' },
    ]);
    // Both of hers hidden: away.
    desk.set('away');
    await seen([
      { userId: 'grace', device: 'desktop', status: 'away' },
      { userId: 'hal', device: 'desktop', status: 'away' },
    ]);
    // The phone's page is back in sight: online, on the phone. Hal's is back too.
    phone.set('online');
    hal.set('online');
    await seen([
      { userId: 'grace', device: 'mobile', status: 'online' },
      { userId: 'hal', device: 'desktop', status: 'online' },
    ]);

    // Flicking between hidden and shown ends as the last word says.
    phone.set('away');
    await tick();
    for (let i = 0; i < 25; i++) desk.set(i % 2 === 0 ? 'online' : 'away');
    desk.set('away');
    await seen([
      { userId: 'grace', device: 'desktop', status: 'away' },
      { userId: 'hal', device: 'desktop', status: 'online' },
    ]);

    // Node two dies without a word: Hal is gone within seconds, Grace is what node one says (away, desktop).
    clearInterval((two as unknown as { timer: ReturnType<typeof setInterval> }).timer);
    await seen([{ userId: 'grace', device: 'desktop', status: 'away' }], 10_000);
    expect(await one.count()).toBe(1);

    // Her last tab closes.
    desk.leave();
    await seen([]);
    await one.onApplicationShutdown();
    await two.onApplicationShutdown();
  }, 30_000);
});
