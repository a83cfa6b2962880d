import type { Logger } from 'pino';
import { type Config, ConfigError, loadConfig } from './config/config.js';
import { contexts } from './contexts.js';
import { CommandBus } from '@nestjs/cqrs';
import { EnsureAdmin } from './identity/commands/ensure-admin/ensure-admin.command.js';
import { ServiceLifecycle } from './ops/service-lifecycle.js';
import { EventCore } from './platform/event-core/event-core.js';
import { loadKeyEncryptionKey } from './platform/personal-data/key-encryption-key.js';
import { createServerApp } from './app.js';
import { type OpenDatabase, openDatabase } from './platform/database/database.js';
import { DatabaseLogSink } from './platform/logging/database-log-sink.js';
import { createLogger, stdoutAndDatabase } from './platform/logging/logger.js';

const SHUTDOWN_GRACE_MS = 10_000;

/**
 * Starts the whole backend: configuration, database (embedded when DATABASE_URL is unset), HTTP + Socket.IO.
 * A bad start ends with one readable line on stderr and exit code 1, never a stack trace.
 */
async function main() {
  let config;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) fail(`Configuration error: ${error.problems.join('; ')}`);
    throw error;
  }
  // The System Log's copy of the log (spec 2): lines wait in the sink until the database is open.
  const logSink = new DatabaseLogSink();
  const logger = createLogger(config.logLevel, stdoutAndDatabase(logSink));
  // Signals are taken from the first moment: one that arrives while starting (an orchestrator stopping a
  // service that just became ready) waits for the start to finish, then stops it in order.
  const signals: { requested?: NodeJS.Signals; stop?: (signal: NodeJS.Signals) => void } = {};
  const onSignal = (signal: NodeJS.Signals) => (signals.stop ? signals.stop(signal) : (signals.requested ??= signal));
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);

  const database = await openDatabase(config, logger).catch((error: unknown) =>
    fail(`Database error: ${message(error)}`),
  );
  logSink.attach(database.db);
  const core = await startEventCore(config, database, logger).catch(async (error: unknown) => {
    await database.close();
    return fail(`Event store error: ${message(error)}`);
  });
  const app = await createServerApp({ config, db: database.db, core, logger });
  // The admin account is ready (role and two-factor login) before the first request is answered: a sign-in right
  // after the health check must already ask for the mailed code.
  if (config.admin) {
    await app.init();
    await app
      .get(CommandBus)
      .execute(new EnsureAdmin(config.admin.emailAddress, config.admin.password, new Date()))
      .catch(async (error: unknown) => {
        await app.close();
        await core.stop();
        await database.close();
        fail(`Admin account error: ${message(error)}`);
      });
    logger.info('admin account ensured (ADMIN_EMAIL)');
  }
  try {
    await app.listen(config.port, config.host);
  } catch (error) {
    await app.close();
    await core.stop();
    await database.close();
    fail(`Cannot listen on ${config.host}:${config.port}: ${message(error)}`);
  }
  await app.get(ServiceLifecycle).recordStart();
  logger.info(
    { url: config.publicUrl, embeddedPostgres: database.embedded },
    `Serendip is running at ${config.publicUrl}`,
  );

  let stopping = false;
  const stop = async (reason: string, exitCode: number) => {
    // A repeated signal (a terminal and a supervisor both sending one) must not cut the shutdown short.
    if (stopping) return;
    stopping = true;
    logger.info({ reason }, 'shutting down');
    setTimeout(() => {
      logger.error('shutdown took too long; exiting');
      process.exit(1);
    }, SHUTDOWN_GRACE_MS).unref();
    app.get(ServiceLifecycle).stoppingBecause(reason);
    await app.close();
    await core.stop();
    await logSink.close();
    await database.close();
    logger.info('stopped');
    logger.flush();
    process.exit(exitCode);
  };
  signals.stop = (signal) => void stop(signal, 0);
  if (signals.requested) signals.stop(signals.requested);
  // Past start-up a crash is logged whole (stack included) and the process still stops in order.
  crashHandler = (error) => {
    logger.fatal({ err: error }, 'unexpected error; shutting down');
    void stop('crash', 1);
  };
}

async function startEventCore(config: Config, database: OpenDatabase, logger: Logger): Promise<EventCore> {
  const core = await EventCore.create({
    db: database.db,
    databaseUrl: database.url,
    eventStoreUrl: config.eventStoreUrl,
    natsUrl: config.natsUrl,
    keyEncryptionKey: await loadKeyEncryptionKey(config.personalDataKey, config.dataDir),
    poolSize: config.databasePoolSize,
    contexts,
    logger,
  });
  await core.start();
  return core;
}

let crashHandler: ((error: unknown) => void) | undefined;

function message(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

function fail(line: string): never {
  process.stderr.write(`${line}\n`);
  process.exit(1);
}

// During start-up whatever escapes (a library's unhandled 'error' event, say) ends with one line.
process.on('uncaughtException', (error) =>
  crashHandler ? crashHandler(error) : fail(`Serendip stopped on an unexpected error: ${message(error)}`),
);
process.on('unhandledRejection', (error) =>
  crashHandler ? crashHandler(error) : fail(`Serendip stopped on an unexpected error: ${message(error)}`),
);
main().catch((error: unknown) => fail(`Serendip failed to start: ${message(error)}`));
