import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const REPO_ROOT = fileURLToPath(new URL('../../../', import.meta.url));

export const NO_WORKER_REASON =
  'no mediasoup worker binary here (build it with `node scripts/mediasoup-worker.mjs`; REQUIRE_MEDIASOUP=1 turns this skip into a failure)';

/** The built mediasoup worker's path, as `scripts/mediasoup-worker.mjs --find` prints it, or undefined. */
export function findMediasoupWorker(): string | undefined {
  try {
    const found = execFileSync(process.execPath, ['scripts/mediasoup-worker.mjs', '--find'], {
      cwd: REPO_ROOT,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
    }).trim();
    return found || undefined;
  } catch {
    return undefined;
  }
}

/**
 * The worker for tests that need real media: its path, or undefined so they skip. With REQUIRE_MEDIASOUP=1
 * (CI) a missing worker throws instead, failing the test file rather than passing it quietly.
 */
export function mediasoupWorkerForTests(): string | undefined {
  const found = findMediasoupWorker();
  if (!found && process.env.REQUIRE_MEDIASOUP === '1') throw new Error(`REQUIRE_MEDIASOUP=1 but ${NO_WORKER_REASON}`);
  return found;
}
