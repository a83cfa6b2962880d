import argon2 from 'argon2';
import { HASHING_SLOTS } from './hashing-slots.js';

/** OWASP's argon2id parameters: 19 MiB of memory, 2 passes, 1 lane. */
const OPTIONS = { type: argon2.argon2id, memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;

export class PasswordHasher {
  /** Verified against when there is no account, so "no such user" takes as long as "wrong password". */
  private readonly decoy = argon2.hash('decoy password, never used', OPTIONS);

  hash(password: string): Promise<string> {
    return HASHING_SLOTS.run(() => argon2.hash(password, OPTIONS));
  }

  async verify(hash: string | undefined, password: string): Promise<boolean> {
    if (!hash) {
      const decoy = await this.decoy;
      await HASHING_SLOTS.run(() => argon2.verify(decoy, password).catch(() => false));
      return false;
    }
    return HASHING_SLOTS.run(() => argon2.verify(hash, password).catch(() => false));
  }

  /** Hashes made with weaker parameters are upgraded at the next successful login. */
  needsRehash(hash: string): boolean {
    return argon2.needsRehash(hash, OPTIONS);
  }
}
