import { mediasoupWorkerForTests, NO_WORKER_REASON } from '../../../sfu/src/test-support/mediasoup-worker.js';

/**
 * The mediasoup worker for relay tests, handed to mediasoup through MEDIASOUP_WORKER_BIN before it is
 * first loaded; undefined (with the reason printed) when this machine has none. REQUIRE_MEDIASOUP=1 (CI) throws.
 */
export function mediasoupWorker(): string | undefined {
  const found = mediasoupWorkerForTests();
  if (found) process.env.MEDIASOUP_WORKER_BIN = found;
  else console.warn(`Skipping the relay tests: ${NO_WORKER_REASON}`);
  return found;
}
