import { randomBytes, randomUUID } from 'node:crypto';
import path from 'node:path';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contexts } from '../../contexts.js';
import { accountStream } from '../../identity/domain/account.events.js';
import { usersProjection } from '../../identity/projections/users.projection.js';
import { createDb, type Db } from './database.js';
import { type RunningPostgres, startEmbeddedPostgres } from './embedded-postgres.js';
import { EventCore } from '../event-core/event-core.js';
import { rebuildProjection } from '../projections/rebuild-projection.js';
import { ApiClient } from '../../test-support/api-client.js';
import {
  type BackendProcess,
  buildBackend,
  startBackendProcess,
  waitForOk,
} from '../../test-support/backend-process.js';
import { freePort } from '../../test-support/global-postgres.js';
import { sharedTempDir } from '../../test-support/temp-dir.js';

/**
 * Postgres restarted under traffic (DESIGN.md "Faults"): a backend process on a Postgres of its own while people sign
 * up without pause; the database stops for a few seconds and starts again. Meanwhile the app answers 503 (never a
 * 500, never a crash), it takes sign-ups again within seconds of the database's return without being restarted, every
 * sign-up it acknowledged is in the log, and the users read model equals a rebuild from the log.
 */
describe('Postgres restarted mid-traffic', () => {
  const logger = pino({ level: 'silent' });
  let dir: string;
  let port: number;
  let postgres: RunningPostgres;
  let node: BackendProcess;
  let base: string;
  let db: Db;
  const key = randomBytes(32);

  const startPostgres = () => startEmbeddedPostgres({ dir: path.join(dir, 'pg'), port, database: 'serendip', logger });

  beforeAll(async () => {
    buildBackend();
    dir = await sharedTempDir('serendip-pg-restart-');
    port = await freePort();
    postgres = await startPostgres();
    const appPort = await freePort();
    base = `http://127.0.0.1:${appPort}`;
    node = startBackendProcess({
      DATABASE_URL: postgres.url,
      PORT: String(appPort),
      PUBLIC_URL: base,
      DATA_DIR: path.join(dir, 'data'),
      PERSONAL_DATA_KEY: key.toString('base64'),
      LOG_LEVEL: 'warn',
    });
    await waitForOk(`${base}/api/health`, 90_000, node.exited).catch((error: Error) => {
      throw new Error(`${error.message}\n${node.stderr()}${node.stdout()}`);
    });
    db = createDb(postgres.url);
  }, 180_000);

  afterAll(async () => {
    node?.child.kill('SIGTERM');
    await node?.exited;
    await db?.destroy();
    await postgres?.stop();
  }, 60_000);

  it('answers 503 while it is down, takes sign-ups again within seconds, loses no acknowledged one', async () => {
    const acknowledged: string[] = [];
    const statuses = new Map<number | string, number>();
    const down: { at?: number; upAt?: number } = {};
    let firstAckAfterUp: number | undefined;
    let stop = false;
    let someone: ApiClient | undefined;

    /** One person signing up after another, as fast as the app answers. */
    async function signUps() {
      while (!stop) {
        const client = new ApiClient(base);
        const emailAddress = `restart-${randomUUID().slice(0, 12)}@example.com`;
        let status: number | string;
        try {
          const res = await client.call('POST', '/auth/signup', { emailAddress, password: 'violet-harbour-42' });
          // A 503 says which: the database is away, or the account is saved but not yet readable.
          status = res.status === 503 ? `503 ${(res.body as { code?: string }).code}` : res.status;
          if (res.status === 201) {
            someone ??= client;
            acknowledged.push((res.body as { _id: string })._id);
            if (down.upAt && firstAckAfterUp === undefined) firstAckAfterUp = Date.now();
          }
        } catch (error) {
          status = (error as Error).message;
        }
        statuses.set(status, (statuses.get(status) ?? 0) + 1);
        if (status !== 201) await new Promise((r) => setTimeout(r, 50));
      }
    }
    const writers = Array.from({ length: 3 }, () => signUps());

    await until(() => acknowledged.length >= 30, 30_000, 'sign-ups before the restart');
    down.at = Date.now();
    await postgres.stop();
    await new Promise((r) => setTimeout(r, 3_000));
    // Meanwhile: the app still answers, and says it is down.
    const health = await fetch(`${base}/api/health`);
    expect(health.status).toBe(503);
    // Also what runs before Nest's routes (the picture routes' session check, the avatar uploads): 503, not 500.
    const asSomeone = {
      Cookie: someone!.cookieHeader(),
      'X-Forwarded-For': someone!.ip,
      Origin: base,
      'Sec-Fetch-Site': 'same-origin',
    };
    const screenshot = await fetch(`${base}/api/report/screenshots`, {
      method: 'POST',
      headers: { ...asSomeone, 'Content-Type': 'image/jpeg' },
      body: new Uint8Array(512),
    });
    const avatar = await fetch(`${base}/api/uploads/avatars`, {
      method: 'POST',
      headers: { ...asSomeone, 'Tus-Resumable': '1.0.0', 'Upload-Length': '512' },
    });
    expect([screenshot.status, avatar.status]).toEqual([503, 503]);
    expect(await screenshot.json()).toMatchObject({ code: 'database-unavailable' });
    postgres = await startPostgres();
    down.upAt = Date.now();
    await until(() => firstAckAfterUp !== undefined, 20_000, 'a sign-up after the database came back');
    const ackedBefore = acknowledged.length;
    await until(() => acknowledged.length >= ackedBefore + 10, 20_000, 'more sign-ups after the restart');
    stop = true;
    await Promise.all(writers);

    console.log(
      `database down ${down.upAt - down.at!} ms; first sign-up ${firstAckAfterUp! - down.upAt} ms after it was back; ` +
        `answers: ${JSON.stringify(Object.fromEntries(statuses))}`,
    );
    // Only "done" or "come back later": no 500, no dropped connection, and the process never ended.
    expect(statuses.get(201)).toBeGreaterThan(0);
    expect(statuses.get('503 database-unavailable')).toBeGreaterThan(0);
    const known = [201, '503 database-unavailable', '503 read-model-behind'];
    expect([...statuses.keys()].filter((s) => !known.includes(s))).toEqual([]);
    expect(firstAckAfterUp! - down.upAt).toBeLessThan(10_000);
    expect(node.child.exitCode).toBeNull();
    expect((await fetch(`${base}/api/health`)).status).toBe(200);

    // Every acknowledged sign-up is in the log...
    const core = await EventCore.create({ db, databaseUrl: postgres.url, keyEncryptionKey: key, contexts, logger });
    try {
      const missing: string[] = [];
      for (const id of acknowledged)
        if ((await core.store.readStream(accountStream(id))).length === 0) missing.push(id);
      expect(missing).toEqual([]);

      // ...and in the read model, which is what a rebuild from the log makes of it.
      const users = () => db.selectFrom('users').selectAll().orderBy('user_id').execute();
      await until(
        async () =>
          (await db.selectFrom('users').select('user_id').where('user_id', 'in', acknowledged).execute()).length ===
          acknowledged.length,
        20_000,
        'the users read model to catch up',
      );
      const projected = await users();
      await rebuildProjection(db, core.store, usersProjection);
      expect(await users()).toEqual(projected);
    } finally {
      await core.stop();
    }
  }, 180_000);
});

async function until(done: () => boolean | Promise<boolean>, ms: number, what: string): Promise<void> {
  const end = Date.now() + ms;
  while (!(await done())) {
    if (Date.now() > end) throw new Error(`waited ${ms} ms for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}
