import { randomBytes } from 'node:crypto';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { createServerApp } from '../app.js';
import { loadConfig } from '../config/config.js';
import { contexts } from '../contexts.js';
import { ServiceLifecycle } from '../ops/service-lifecycle.js';
import { createDb, type Db, migrateToLatest } from '../platform/database/database.js';
import { EventCore } from '../platform/event-core/event-core.js';
import { DatabaseLogSink } from '../platform/logging/database-log-sink.js';
import { createLogger } from '../platform/logging/logger.js';
import { createTestDatabase, type TestDatabase } from './test-database.js';

export interface TestApp {
  app: NestExpressApplication;
  /** e.g. http://127.0.0.1:41234 */
  base: string;
  db: Db;
  core: EventCore;
  database: TestDatabase;
  close(): Promise<void>;
}

/**
 * The whole backend in this process, on its own fresh database and a free port: for HTTP and socket tests. Given a
 * `database` (another test app's, closed), it starts again on that one as a restarted node would, and leaves it be
 * when it closes; the same PERSONAL_DATA_KEY in `env` keeps the sessions and sealed data of before readable.
 */
export async function startTestApp(
  env: Record<string, string> = {},
  options: { database?: TestDatabase } = {},
): Promise<TestApp> {
  const database = options.database ?? (await createTestDatabase());
  // Peer to peer unless a test asks for the SFU: most tests are not about media, and each SFU starts workers.
  const config = loadConfig({ DATABASE_URL: database.url, MEDIA_MODE: 'p2p', LOG_LEVEL: 'warn', ...env });
  // As main does, minus stdout: the log goes to the System Log's table only (LOG_LEVEL=info in a test to see more).
  const logSink = new DatabaseLogSink();
  const logger = createLogger(config.logLevel, logSink);
  const db = createDb(database.url);
  await migrateToLatest(db, logger);
  logSink.attach(db);
  const core = await EventCore.create({
    db,
    databaseUrl: database.url,
    keyEncryptionKey: config.personalDataKey ?? randomBytes(32),
    contexts,
    logger,
  });
  await core.start();
  const app = await createServerApp({ config, db, core, logger });
  await app.listen(0, '127.0.0.1');
  await app.get(ServiceLifecycle).recordStart();
  const base = (await app.getUrl()).replace('[::1]', '127.0.0.1');
  return {
    app,
    base,
    db,
    core,
    database,
    close: async () => {
      await app.close();
      await core.stop();
      await logSink.close();
      await db.destroy();
      if (!options.database) await database.drop();
    },
  };
}
