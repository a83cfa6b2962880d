import { Kysely, Migrator, PostgresDialect, sql } from 'kysely';
import pg from 'pg';
import type { Logger } from 'pino';
import type { Config } from '../../config/config.js';
import { safeUrl } from '../logging/logger.js';
import { startEmbeddedPostgres } from './embedded-postgres.js';
import { migrations } from './migrations/index.js';
import type { Database } from './schema.js';

export const DATABASE = Symbol('DATABASE');
export type Db = Kysely<Database>;

export interface OpenDatabase {
  db: Db;
  url: string;
  embedded: boolean;
  close(): Promise<void>;
}

export class DatabaseUnreachable extends Error {
  override name = 'DatabaseUnreachable';
}

/** Connects to DATABASE_URL, or starts the embedded Postgres when it is unset; then migrates to latest. */
export async function openDatabase(config: Config, logger: Logger): Promise<OpenDatabase> {
  const embedded = config.databaseUrl
    ? undefined
    : await startEmbeddedPostgres({ ...config.embeddedPostgres, database: 'serendip', logger });
  const url = config.databaseUrl ?? embedded!.url;
  const db = createDb(url, logger, config.databasePoolSize);
  try {
    await waitUntilReachable(db, url);
    await migrateToLatest(db, logger);
  } catch (error) {
    await db.destroy();
    await embedded?.stop();
    throw error;
  }
  return {
    db,
    url,
    embedded: Boolean(embedded),
    close: async () => {
      await db.destroy();
      await embedded?.stop();
    },
  };
}

export function createDb(url: string, logger?: Logger, poolSize = 10): Db {
  const pool = new pg.Pool({ connectionString: url, max: poolSize, connectionTimeoutMillis: 5000 });
  // A connection lost while idle (pool) or checked out between queries (client) must not crash the process
  // as an unhandled 'error' event (a Postgres restart); the next query on it reports the failure anyway.
  pool.on('error', (error) => logger?.warn({ err: describeDbError(error) }, 'idle database connection lost'));
  pool.on('connect', (client) =>
    client.on('error', (error) => logger?.warn({ err: describeDbError(error) }, 'database connection lost')),
  );
  return new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
}

/** Tries for a few seconds (a database starting beside us), then gives up with one clear sentence. */
async function waitUntilReachable(db: Db, url: string, attempts = 5): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    try {
      await sql`select 1`.execute(db);
      return;
    } catch (error) {
      // Wrong password, role or database name will not fix themselves by waiting.
      const permanent = ['28P01', '28000', '3D000'].includes((error as { code?: string }).code ?? '');
      if (attempt >= attempts || permanent) {
        throw new DatabaseUnreachable(`cannot reach Postgres at ${safeUrl(url)}: ${describeDbError(error)}`);
      }
      await new Promise((r) => setTimeout(r, 1000));
    }
  }
}

export async function migrateToLatest(db: Kysely<unknown> | Db, logger: Logger): Promise<void> {
  const migrator = new Migrator({
    db: db as Kysely<unknown>,
    provider: { getMigrations: async () => migrations },
  });
  const { error, results } = await migrator.migrateToLatest();
  for (const r of results ?? []) {
    if (r.status === 'Success') logger.info({ migration: r.migrationName }, 'migration applied');
    if (r.status === 'Error') logger.error({ migration: r.migrationName }, 'migration failed');
  }
  if (error) throw error instanceof Error ? error : new Error(String(error));
}

/** pg's connection errors can be AggregateErrors with an empty message; the code says more. */
export function describeDbError(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const code = (error as { code?: string }).code;
  if (!error.message) return code ?? error.name;
  return code && !error.message.includes(code) ? `${code} ${error.message}` : error.message;
}
