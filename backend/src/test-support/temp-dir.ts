import { chmod, mkdtemp } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

/**
 * A temporary folder the `postgres` user may pass through: as root, the embedded Postgres runs as that user
 * and refuses folders it cannot reach (mkdtemp makes them private).
 */
export async function sharedTempDir(prefix: string): Promise<string> {
  const dir = await mkdtemp(path.join(os.tmpdir(), prefix));
  await chmod(dir, 0o711);
  return dir;
}
