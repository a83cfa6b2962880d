import { chmod, mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { startEmbeddedPostgres } from '@serendip/backend/platform/database/embedded-postgres.js';
import pg from 'pg';
import type { Logger } from 'pino';

export interface BenchDatabase {
  url: string;
  /** 'DATABASE_URL' or 'embedded': where the figures were measured. */
  postgres: 'DATABASE_URL' | 'embedded';
  drop(): Promise<void>;
}

/**
 * A database of the benchmark's own, dropped afterwards, so the figures are not mixed with anything else: on the
 * Postgres of DATABASE_URL, or on an embedded one started for the run (on `embeddedPort`).
 */
export async function benchDatabase(name: string, embeddedPort: number, logger: Logger): Promise<BenchDatabase> {
  let url = process.env.DATABASE_URL;
  let tempDir: string | undefined;
  let embedded: Awaited<ReturnType<typeof startEmbeddedPostgres>> | undefined;
  if (!url) {
    tempDir = await mkdtemp(path.join(os.tmpdir(), 'serendip-bench-'));
    // As root the embedded Postgres runs as `postgres`, which must pass through this (private) folder.
    await chmod(tempDir, 0o711);
    embedded = await startEmbeddedPostgres({
      dir: path.join(tempDir, 'postgres'),
      port: embeddedPort,
      database: 'bench',
      logger,
    });
    url = embedded.url;
  }
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  const database = `serendip_bench_${name}_${Date.now()}`;
  await admin.query(`create database ${database}`);
  return {
    url: Object.assign(new URL(url), { pathname: `/${database}` }).toString(),
    postgres: embedded ? 'embedded' : 'DATABASE_URL',
    drop: async () => {
      await admin.query(`drop database ${database} with (force)`);
      await admin.end();
      await embedded?.stop();
      if (tempDir) await rm(tempDir, { recursive: true, force: true });
    },
  };
}
