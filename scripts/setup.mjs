// What `npm start` and `npm test` do before their real work: check Node, install what is missing, build
// what is stale. Plain Node only: it runs before any dependency is installed.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { embeddedPostgresProblem } from './postgres-access.mjs';

export const root = fileURLToPath(new URL('..', import.meta.url));
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';

export function say(line) {
  process.stdout.write(`\x1b[36m[serendip]\x1b[0m ${line}\n`);
}

export function run(command, args, options = {}) {
  const result = spawnSync(command, args, { cwd: root, stdio: 'inherit', ...options });
  if (result.status !== 0) {
    process.stderr.write(`${command} ${args.join(' ')} failed (exit ${result.status ?? result.signal})\n`);
    process.exit(result.status || 1);
  }
}

export function checkNode() {
  const [major, minor] = process.versions.node.split('.').map(Number);
  if (major < 20 || (major === 20 && minor < 19)) {
    process.stderr.write(`Serendip needs Node.js 20.19 or newer; this is ${process.version}.\n`);
    process.exit(1);
  }
}

/** Stops at once when the embedded Postgres could not run here: a folder above it that its user may not pass. */
export function checkEmbeddedPostgres() {
  const problem = embeddedPostgresProblem({ root });
  if (!problem) return;
  process.stderr.write(`Serendip cannot start: ${problem}.\n`);
  process.exit(1);
}

/**
 * `npm start`'s steps before the app runs, in order. The checks that can stop it come first, so a start that must
 * stop says so in seconds, not after the install, the build and the media worker's build (minutes on a fresh machine).
 */
export async function prepareStart(
  steps = { checkNode, checkEmbeddedPostgres, ensureInstalled, ensureBuilt, ensureMediaWorker },
  env = process.env,
) {
  steps.checkNode();
  steps.checkEmbeddedPostgres();
  steps.ensureInstalled();
  steps.ensureBuilt();
  if (env.MEDIA_MODE !== 'p2p') await steps.ensureMediaWorker();
}

/** `npm ci` when node_modules is missing or was installed from another package-lock.json. */
export function ensureInstalled() {
  const lock = path.join(root, 'package-lock.json');
  const stamp = path.join(root, 'node_modules', '.serendip-lock-hash');
  const want = createHash('sha256').update(readFileSync(lock)).digest('hex');
  if (existsSync(stamp) && readFileSync(stamp, 'utf8') === want) return;
  say('installing dependencies (npm ci)...');
  run(npm, ['ci', '--no-audit', '--no-fund']);
  writeFileSync(stamp, want);
}

/** Builds the Node packages (incremental) and the web client when any of its sources is newer. */
export function ensureBuilt() {
  say('building...');
  run(process.execPath, [path.join(root, 'node_modules/typescript/bin/tsc'), '-b', 'proto', 'backend', 'sfu']);
  const built = path.join(root, 'frontend/dist/index.html');
  const sources = ['frontend/src', 'frontend/public', 'frontend/index.html', 'frontend/vite.config.ts', 'proto/src'];
  const builtAt = existsSync(built) ? statSync(built).mtimeMs : 0;
  if (sources.some((s) => newestMtime(path.join(root, s)) > builtAt)) {
    run(npm, ['run', 'build', '-w', 'frontend', '--silent']);
  }
}

function newestMtime(file) {
  if (!existsSync(file)) return 0;
  const stat = statSync(file);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return Math.max(stat.mtimeMs, ...readdirSync(file).map((name) => newestMtime(path.join(file, name))));
}

/**
 * The SFU's mediasoup worker: found, or built once from the npm package's sources (cached outside the
 * work tree), and handed to the app as MEDIASOUP_WORKER_BIN. With `installMissing` (npm test as root, CI) the
 * Debian packages the build and the snapshots need are installed first. Without a worker the app runs peer to peer
 * and says so once.
 */
export async function ensureMediaWorker({ installMissing = false } = {}) {
  const { BUILD_PACKAGES, ensureWorker, findWorker } = await import('./mediasoup-worker.mjs');
  let bin = findWorker();
  if (!bin && installMissing && process.getuid?.() === 0 && existsSync('/usr/bin/apt-get')) {
    const wanted = [...BUILD_PACKAGES, 'ffmpeg'].filter(
      (pkg) =>
        spawnSync('dpkg-query', ['-W', '-f=${Status}', pkg], { encoding: 'utf8' }).stdout.indexOf('ok installed') < 0,
    );
    if (wanted.length) {
      say(`installing ${wanted.join(' ')} to build the media relay's worker (apt-get)...`);
      const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
      spawnSync('apt-get', ['update', '-qq'], { stdio: 'inherit', env });
      spawnSync('apt-get', ['install', '-y', '-qq', ...wanted], { stdio: 'inherit', env });
    }
  }
  if (!bin) {
    try {
      say("building the media relay's worker (once per machine, about 3 to 5 minutes)...");
      bin = ensureWorker();
    } catch (error) {
      say(`media relay and server snapshots are off: ${error.message}`);
      return undefined;
    }
  }
  process.env.MEDIASOUP_WORKER_BIN = bin;
  return bin;
}
