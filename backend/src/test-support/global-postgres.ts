import { rm } from 'node:fs/promises';
import { sharedTempDir } from './temp-dir.js';
import { createServer } from 'node:net';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { pino } from 'pino';
import { startEmbeddedPostgres } from '../platform/database/embedded-postgres.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /** A superuser URL of the Postgres the tests use; each test file makes its own database on it. */
    adminDatabaseUrl: string;
  }
}

/**
 * Tests use DATABASE_URL when it is set (CI: the machine's Postgres); otherwise one embedded Postgres is
 * started for the whole run in a temporary directory and removed afterwards.
 */
export default async function setup(project: TestProject) {
  if (process.env.DATABASE_URL) {
    project.provide('adminDatabaseUrl', process.env.DATABASE_URL);
    return;
  }
  const dir = await sharedTempDir('serendip-test-pg-');
  const port = await freePort();
  const postgres = await startEmbeddedPostgres({
    dir: path.join(dir, 'postgres'),
    port,
    database: 'serendip_test',
    logger: pino({ level: 'warn' }),
  });
  project.provide('adminDatabaseUrl', postgres.url);
  return async () => {
    await postgres.stop();
    await rm(dir, { recursive: true, force: true });
  };
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}
