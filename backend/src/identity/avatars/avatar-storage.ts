import { randomBytes } from 'node:crypto';
import { readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import type { Provider } from '@nestjs/common';
import { API_PREFIX } from '@serendip/proto';
import type { Config } from '../../config/config.js';
import { CONFIG } from '../../config/config.token.js';
import { writeWholeFile } from '../../platform/files/whole-file.js';

/**
 * Where finished avatars live. A port, so the filesystem adapter below can be swapped for an
 * S3-compatible one (same three calls, object keys = file names) without touching the upload flow or deletion.
 */
export interface AvatarStorage {
  /** Stores a new picture whole or not at all (a full disk is storageFull); names are never reused. */
  save(name: string, bytes: Buffer): Promise<void>;
  /** The picture's bytes, or undefined when there is none by that name. */
  read(name: string): Promise<Buffer | undefined>;
  /** Removes a picture; a missing one is not an error (deletion may be retried). */
  remove(name: string): Promise<void>;
}

export const AVATAR_STORAGE = Symbol('AVATAR_STORAGE');

/** 128 random bits: a name is unguessable and never names two pictures, so it can be cached for ever. */
const AVATAR_NAME = /^[0-9a-f]{32}\.webp$/;
export const AVATAR_URL_PREFIX = `/${API_PREFIX}/avatars/`;

export function newAvatarName(): string {
  return `${randomBytes(16).toString('hex')}.webp`;
}

export function isAvatarName(name: string): boolean {
  return AVATAR_NAME.test(name);
}

export function avatarUrl(name: string): string {
  return `${AVATAR_URL_PREFIX}${name}`;
}

/** The stored file behind an avatar URL, or undefined when the URL is not one of ours (or there is none). */
export function avatarNameOf(url: string | null | undefined): string | undefined {
  if (!url?.startsWith(AVATAR_URL_PREFIX)) return undefined;
  const name = url.slice(AVATAR_URL_PREFIX.length);
  return isAvatarName(name) ? name : undefined;
}

/** Pictures as files in one folder (`DATA_DIR/avatars`): enough for one node or a shared volume. */
export class FileAvatarStorage implements AvatarStorage {
  constructor(private readonly dir: string) {}

  async save(name: string, bytes: Buffer): Promise<void> {
    // Served to everyone: readable by all, as before.
    await writeWholeFile(this.pathOf(name), bytes, { mode: 0o644, dirMode: 0o755 });
  }

  async read(name: string): Promise<Buffer | undefined> {
    try {
      return await readFile(this.pathOf(name));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw error;
    }
  }

  async remove(name: string): Promise<void> {
    await rm(this.pathOf(name), { force: true });
  }

  // Names come from URLs and requests: only our own pattern ever becomes a path (no traversal).
  private pathOf(name: string): string {
    if (!isAvatarName(name)) throw new Error(`not an avatar file name: ${JSON.stringify(name)}`);
    return path.join(this.dir, name);
  }
}

export const avatarStorageProvider: Provider = {
  provide: AVATAR_STORAGE,
  useFactory: (config: Config) => new FileAvatarStorage(path.join(config.dataDir, 'avatars')),
  inject: [CONFIG],
};
