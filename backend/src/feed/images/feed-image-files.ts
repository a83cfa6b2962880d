import { readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import { writeWholeFile } from '../../platform/files/whole-file.js';

/** Posts' pictures, under DATA_DIR/feed-images (owner-only), named by their id. */
const DIR = 'feed-images';

export const feedImageFileName = (imageId: string) => `${imageId}.webp`;

export async function writeFeedImage(dataDir: string, file: string, bytes: Buffer): Promise<void> {
  await writeWholeFile(path.join(dataDir, DIR, path.basename(file)), bytes);
}

export function readFeedImage(dataDir: string, file: string): Promise<Buffer> {
  return readFile(path.join(dataDir, DIR, path.basename(file)));
}

export async function removeFeedImage(dataDir: string, file: string): Promise<void> {
  await rm(path.join(dataDir, DIR, path.basename(file)), { force: true });
}
