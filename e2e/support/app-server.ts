import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import {
  type BackendProcess,
  MAIN_JS,
  startBackendProcess,
  waitForOk,
} from '../../backend/src/test-support/backend-process.js';
import { freePort } from '../../backend/src/test-support/global-postgres.js';
import { createTestDatabase, type TestDatabase } from '../../backend/src/test-support/test-database.js';

const CLIENT_INDEX = fileURLToPath(new URL('../../frontend/dist/index.html', import.meta.url));

export interface AppServer {
  url: string;
  /** The app's process (fault tests find its children by it: the SFU's mediasoup workers). */
  pid: number;
  stop(): Promise<void>;
}

/** The built app, started the way `npm start` starts it, on its own database and port. */
export async function startAppServer(env: Record<string, string> = {}): Promise<AppServer> {
  for (const file of [MAIN_JS, CLIENT_INDEX]) {
    if (!existsSync(file)) throw new Error(`${file} is missing: run \`npm run build\` first (npm test does)`);
  }
  const database: TestDatabase = await createTestDatabase();
  const port = await freePort();
  const backend: BackendProcess = startBackendProcess({
    PORT: String(port),
    DATABASE_URL: database.url,
    LOG_LEVEL: 'warn',
    PUBLIC_URL: `http://127.0.0.1:${port}`,
    // The media relay's worker, as `npm start` hands it over.
    ...(process.env.MEDIASOUP_WORKER_BIN ? { MEDIASOUP_WORKER_BIN: process.env.MEDIASOUP_WORKER_BIN } : {}),
    ...env,
  });
  const url = `http://127.0.0.1:${port}`;
  try {
    await waitForOk(`${url}/api/health`, 90_000, backend.exited);
  } catch (error) {
    backend.child.kill('SIGKILL');
    throw new Error(`${(error as Error).message}\n${backend.stderr()}${backend.stdout()}`);
  }
  return {
    url,
    pid: backend.child.pid!,
    stop: async () => {
      backend.child.kill('SIGTERM');
      await backend.exited;
      await database.drop();
    },
  };
}
