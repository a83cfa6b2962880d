import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';

/** Posts' pictures, under DATA_DIR/feed-images (owner-only), named by their id. */
const DIR = 'feed-images';

export const feedImageFileName = (imageId: string) => `${imageId}.webp`;

export async function writeFeedImage(dataDir: string, file: string, bytes: Buffer): Promise<void> {
  const dir = path.join(dataDir, DIR);
  await mkdir(dir, { recursive: true, mode: 0o700 });
  await writeFile(path.join(dir, path.basename(file)), bytes, { mode: 0o600 });
}

export function readFeedImage(dataDir: string, file: string): Promise<Buffer> {
  return readFile(path.join(dataDir, DIR, path.basename(file)));
}

export async function removeFeedImage(dataDir: string, file: string): Promise<void> {
  await rm(path.join(dataDir, DIR, path.basename(file)), { force: true });
}
