import { randomBytes } from 'node:crypto';
import { mkdir, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { DomainError } from '../cqrs/decider.js';

/** What a person is told when DATA_DIR is full: the fault is ours and passes, so 503 with a time to come back. */
export const STORAGE_FULL_MESSAGE = 'The server has no room to store files right now; please try again later';
const STORAGE_FULL_RETRY_SECONDS = 300;

/**
 * Writes a file whole or not at all (pictures and evidence under DATA_DIR): the bytes go to a hidden name in the same
 * folder and are renamed into place, which is atomic within a filesystem. A failed write leaves nothing behind, so a
 * full disk never leaves a cut-off picture or piece of evidence, and it is answered as storageFull, not as a crash.
 */
export async function writeWholeFile(
  file: string,
  bytes: Uint8Array,
  options: { mode?: number; dirMode?: number } = {},
): Promise<void> {
  const dir = path.dirname(file);
  const partial = path.join(dir, `.${path.basename(file)}.${randomBytes(6).toString('hex')}.partial`);
  try {
    await mkdir(dir, { recursive: true, mode: options.dirMode ?? 0o700 });
    await writeFile(partial, bytes, { mode: options.mode ?? 0o600, flag: 'wx' });
    await rename(partial, file);
  } catch (error) {
    await rm(partial, { force: true }).catch(() => undefined);
    throw isStorageFull(error) ? storageFull() : error;
  }
}

/** The filesystem said it has no room left (or the quota is spent). */
export function isStorageFull(error: unknown): boolean {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  return code === 'ENOSPC' || code === 'EDQUOT';
}

export function storageFull(): DomainError {
  return new DomainError('storage-full', STORAGE_FULL_MESSAGE, {
    kind: 'unavailable',
    retryAfterSeconds: STORAGE_FULL_RETRY_SECONDS,
  });
}
