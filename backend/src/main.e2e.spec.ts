import { mkdtemp, rm, stat } from 'node:fs/promises';
import { spawn } from 'node:child_process';
import { connect } from 'node:net';
import { fileURLToPath } from 'node:url';
import os from 'node:os';
import path from 'node:path';
import { HEALTH_MESSAGES } from '@serendip/proto';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildBackend, startBackendProcess, waitForOk } from './test-support/backend-process.js';
import { sharedTempDir } from './test-support/temp-dir.js';
import { freePort } from './test-support/global-postgres.js';
import { createTestDatabase } from './test-support/test-database.js';
import { createDb } from './platform/database/database.js';

/** The backend as an operator runs it: a real process, its exit code, its output. */
describe('backend process', () => {
  beforeAll(() => buildBackend(), 120_000);

  it('stops at once with one clear line when a variable is malformed', async () => {
    const backend = startBackendProcess({ PORT: 'abc' });
    expect(await backend.exited).toBe(1);
    expect(backend.stderr()).toBe('Configuration error: PORT must be a whole number from 1 to 65535 (got "abc")\n');
    expect(backend.stdout()).toBe('');
  });

  it('stops with one line naming the database when DATABASE_URL cannot be reached, without its password', async () => {
    const port = await freePort();
    const backend = startBackendProcess({
      DATABASE_URL: `postgres://serendip:s3cret@127.0.0.1:${port}/serendip`,
      PORT: String(await freePort()),
    });
    expect(await backend.exited).toBe(1);
    const lines = backend.stderr().trimEnd().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(
      new RegExp(
        `^Database error: cannot reach Postgres at postgres://127\\.0\\.0\\.1:${port}/serendip: connect ECONNREFUSED`,
      ),
    );
    expect(backend.stderr() + backend.stdout()).not.toContain('s3cret');
  }, 30_000);

  it('with no DATABASE_URL starts its own Postgres, serves, and stops both cleanly on SIGTERM', async () => {
    const dataDir = await sharedTempDir('serendip-data-');
    const [port, pgPort] = [await freePort(), await freePort()];
    const backend = startBackendProcess({
      PORT: String(port),
      DATA_DIR: dataDir,
      EMBEDDED_POSTGRES_PORT: String(pgPort),
    });
    try {
      const res = await waitForOk(`http://127.0.0.1:${port}/api/health`, 90_000, backend.exited);
      expect(await res.json()).toEqual({ message: HEALTH_MESSAGES.up });
      expect(await isListening(pgPort)).toBe(true);

      backend.child.kill('SIGTERM');
      expect(await backend.exited).toBe(0);
      expect(await isListening(pgPort)).toBe(false);
      // Every line is one JSON object: what a log shipper expects.
      const lines = backend.stdout().trim().split('\n');
      for (const line of lines) expect(() => JSON.parse(line), line).not.toThrow();
      expect(lines.map((l) => JSON.parse(l).msg)).toEqual(expect.arrayContaining(['shutting down', 'stopped']));
    } finally {
      backend.child.kill('SIGKILL');
      await rm(dataDir, { recursive: true, force: true });
    }
  }, 120_000);

  it('stopped while still starting, finishes starting, then stops in order (exit 0, its Postgres stopped)', async () => {
    const dataDir = await sharedTempDir('serendip-early-stop-');
    const [port, pgPort] = [await freePort(), await freePort()];
    const backend = startBackendProcess({
      PORT: String(port),
      DATA_DIR: dataDir,
      EMBEDDED_POSTGRES_PORT: String(pgPort),
    });
    try {
      // Once its Postgres is being made there is something to stop in order (before that, nothing runs yet).
      for (let i = 0; i < 300 && !backend.stdout().includes('initialising embedded Postgres'); i++) {
        await new Promise((r) => setTimeout(r, 20));
      }
      backend.child.kill('SIGTERM');
      expect(await backend.exited).toBe(0);
      expect(await isListening(pgPort)).toBe(false);
      expect(backend.stdout()).toContain('"msg":"stopped"');
    } finally {
      backend.child.kill('SIGKILL');
      await rm(dataDir, { recursive: true, force: true });
    }
  }, 120_000);

  it.runIf(process.getuid?.() === 0)(
    'as root, names a private folder the embedded Postgres cannot pass instead of changing it',
    async () => {
      const privateDir = await mkdtemp(path.join(os.tmpdir(), 'serendip-private-'));
      try {
        const backend = startBackendProcess({
          PORT: String(await freePort()),
          DATA_DIR: path.join(privateDir, 'data'),
        });
        expect(await backend.exited).toBe(1);
        expect(backend.stderr()).toMatch(
          new RegExp(
            `^Database error: .*may not pass through ${privateDir} \\(mode 700\\).*chmod o\\+x ${privateDir}.*DATABASE_URL\n$`,
          ),
        );
        expect((await stat(privateDir)).mode & 0o777).toBe(0o700);
      } finally {
        await rm(privateDir, { recursive: true, force: true });
      }
    },
  );

  it('through `npm start`, Ctrl+C (SIGINT to the whole process group) shuts down in order and logs the stop', async () => {
    const database = await createTestDatabase();
    const port = await freePort();
    const start = spawn(process.execPath, ['scripts/start.mjs'], {
      cwd: fileURLToPath(new URL('../../', import.meta.url)),
      env: { PATH: process.env.PATH ?? '', PORT: String(port), DATABASE_URL: database.url, LOG_LEVEL: 'warn' },
      detached: true, // its own process group, as a terminal gives it
      stdio: 'ignore',
    });
    const exited = new Promise<number | null>((resolve) => start.once('exit', resolve));
    const db = createDb(database.url);
    try {
      await waitForOk(`http://127.0.0.1:${port}/api/health`, 120_000, exited);
      process.kill(-start.pid!, 'SIGINT');
      expect(await exited).toBe(0);
      const messages = (await db.selectFrom('server_log').select('message').orderBy('id').execute()).map(
        (r) => r.message,
      );
      expect(messages.at(-1)).toBe('Backend stopping (SIGINT)');
    } finally {
      if (start.exitCode === null) process.kill(-start.pid!, 'SIGKILL');
      await db.destroy();
      await database.drop();
    }
  }, 150_000);

  it('with DATABASE_URL uses that database and logs its start and stop there', async () => {
    const database = await createTestDatabase();
    const port = await freePort();
    const backend = startBackendProcess({ PORT: String(port), DATABASE_URL: database.url });
    const db = createDb(database.url);
    try {
      await waitForOk(`http://127.0.0.1:${port}/api/health`, 90_000, backend.exited);
      backend.child.kill('SIGTERM');
      expect(await backend.exited).toBe(0);
      const messages = (await db.selectFrom('server_log').select('message').orderBy('id').execute()).map(
        (r) => r.message,
      );
      expect(messages).toEqual([expect.stringMatching(/^Backend started/), 'Backend stopping (SIGTERM)']);
    } finally {
      backend.child.kill('SIGKILL');
      await db.destroy();
      await database.drop();
    }
  }, 120_000);
});

function isListening(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => (socket.destroy(), resolve(true)));
    socket.once('error', () => resolve(false));
  });
}
