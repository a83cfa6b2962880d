import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';

/**
 * The key that wraps every subject key. Production passes it in PERSONAL_DATA_KEY (a secret, never in the
 * database); a developer's machine gets one made once and kept in DATA_DIR, readable only by its owner.
 */
export async function loadKeyEncryptionKey(configured: Buffer | undefined, dataDir: string): Promise<Buffer> {
  if (configured) return configured;
  const file = path.join(dataDir, 'personal-data.key');
  if (existsSync(file)) return Buffer.from((await readFile(file, 'utf8')).trim(), 'base64');
  const key = randomBytes(32);
  await mkdir(dataDir, { recursive: true });
  await writeFile(file, `${key.toString('base64')}\n`, { mode: 0o600, flag: 'wx' });
  return key;
}
