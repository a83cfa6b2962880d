import { type Config, ConfigError, loadConfig } from '../config/config.js';
import { contexts } from '../contexts.js';
import { type Db, openDatabase } from '../platform/database/database.js';
import { EventCore } from '../platform/event-core/event-core.js';
import { createLogger } from '../platform/logging/logger.js';
import { loadKeyEncryptionKey } from '../platform/personal-data/key-encryption-key.js';

/**
 * What an operator command works with: the app's configuration, database and event core (not started: no
 * projector or publisher runs in a command). Everything is closed afterwards, whatever happened.
 */
export async function withEventCore<T>(
  work: (tools: { config: Config; db: Db; core: EventCore }) => Promise<T>,
): Promise<T> {
  const config = loadConfig();
  const logger = createLogger('warn');
  const database = await openDatabase(config, logger);
  try {
    const core = await EventCore.create({
      db: database.db,
      databaseUrl: database.url,
      eventStoreUrl: config.eventStoreUrl,
      keyEncryptionKey: await loadKeyEncryptionKey(config.personalDataKey, config.dataDir),
      contexts,
      logger,
    });
    try {
      return await work({ config, db: database.db, core });
    } finally {
      await core.stop();
    }
  } finally {
    await database.close();
  }
}

/** Runs a command: exit 0 when it succeeds, else one line `<name> failed: <why>` on stderr and exit 1. */
export function runCli(name: string, main: () => Promise<void>): void {
  main().then(
    () => process.exit(0),
    (error: unknown) => {
      const problem =
        error instanceof ConfigError
          ? `Configuration error: ${error.problems.join('; ')}`
          : error instanceof Error
            ? error.message
            : String(error);
      process.stderr.write(`${name} failed: ${problem}\n`);
      process.exit(1);
    },
  );
}
