import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { sql } from 'kysely';
import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { contexts } from '../../contexts.js';
import { serverLogProjection } from '../../ops/projections/server-log.projection.js';
import { buildBackend } from '../../test-support/backend-process.js';
import { createTestDatabase } from '../../test-support/test-database.js';
import { createDb, migrateToLatest } from '../database/database.js';
import { readEverything } from '../event-store/event-store.contract.js';
import { rebuildProjection } from '../projections/rebuild-projection.js';
import { EventCore } from './event-core.js';

const WORKER = fileURLToPath(new URL('../../test-support/burst-worker.mjs', import.meta.url));

describe('a crash in the middle of a burst of commands', () => {
  it('loses no acknowledged event, and every read model equals a fresh rebuild', async () => {
    buildBackend();
    const database = await createTestDatabase();
    const logger = pino({ level: 'silent' });
    const db = createDb(database.url);
    await migrateToLatest(db, logger);
    const key = randomBytes(32);
    try {
      const worker = spawn(process.execPath, [WORKER], {
        env: { PATH: process.env.PATH ?? '', DATABASE_URL: database.url, PERSONAL_DATA_KEY: key.toString('base64') },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      const acked = new Set<string>();
      let errors = '';
      worker.stderr!.on('data', (c: Buffer) => (errors += c.toString()));
      const exited = new Promise((resolve) => worker.once('exit', resolve));
      await new Promise<void>((resolve, reject) => {
        const timer = setTimeout(
          () => reject(new Error(`worker made too little progress: ${acked.size} acks ${errors}`)),
          60_000,
        );
        worker.stdout!.on('data', (chunk: Buffer) => {
          for (const line of chunk.toString().split('\n')) if (line.startsWith('ack ')) acked.add(line.slice(4));
          if (acked.size >= 300) {
            clearTimeout(timer);
            resolve();
          }
        });
        void exited.then(() => reject(new Error(`worker ended early: ${errors}`)));
      });
      worker.kill('SIGKILL');
      await exited;

      // Durable: every acknowledged command's event is committed in the log.
      const committed = await db
        .selectFrom('events')
        .select(sql<string>`metadata->>'causationId'`.as('causationId'))
        .execute();
      const storedCommands = new Set(committed.map((row) => row.causationId));
      const lost = [...acked].filter((id) => !storedCommands.has(id));
      expect(lost).toEqual([]);

      // Readers see the log only behind the cluster's oldest running transaction (the killed worker's, or
      // another test's in a shared cluster), so wait until it has all become readable.
      const reader = await EventCore.create({ db, databaseUrl: database.url, keyEncryptionKey: key, contexts, logger });
      let stored = await readEverything(reader.store);
      for (const until = Date.now() + 60_000; stored.length < committed.length && Date.now() < until;) {
        await new Promise((resolve) => setTimeout(resolve, 100));
        stored = await readEverything(reader.store);
      }
      await reader.stop();
      expect(stored).toHaveLength(committed.length);

      // After a restart the projections catch up from their checkpoints...
      const core = await EventCore.create({ db, databaseUrl: database.url, keyEncryptionKey: key, contexts, logger });
      await core.start();
      await core.projections.caughtUpTo(stored[stored.length - 1]!.position);
      await core.stop();
      const serverLog = () =>
        db
          .selectFrom('server_log')
          .select(['timestamp', 'level', 'message', 'instance'])
          .orderBy('instance')
          .orderBy('message')
          .execute();
      const caughtUp = await serverLog();
      expect(caughtUp).toHaveLength(stored.filter((e) => e.type === 'ServiceStarted').length);

      // ...to exactly what a replay from zero builds.
      const fresh = await EventCore.create({ db, databaseUrl: database.url, keyEncryptionKey: key, contexts, logger });
      await rebuildProjection(db, fresh.store, serverLogProjection);
      await fresh.stop();
      expect(await serverLog()).toEqual(caughtUp);
    } finally {
      await db.destroy();
      await database.drop();
    }
  }, 120_000);
});
