import argon2 from 'argon2';
import { describe, expect, it } from 'vitest';
import { PasswordHasher } from './password-hasher.js';
import { passwordProblem } from './password-policy.js';

describe('password policy', () => {
  it('takes a long, uncommon password', () => {
    expect(passwordProblem('violet-harbour-lantern-42')).toBeUndefined();
  });

  it('says what is wrong with a short, a huge or a common one', () => {
    expect(passwordProblem('short1!')).toBe('Password must be at least 8 characters');
    expect(passwordProblem('x'.repeat(129))).toBe('Password must be at most 128 characters');
    expect(passwordProblem('password')).toMatch(/most common/);
    expect(passwordProblem('PASSWORD')).toMatch(/most common/);
    expect(passwordProblem('12345678')).toMatch(/most common/);
  });
});

describe('password hasher', () => {
  const hasher = new PasswordHasher();

  it('stores argon2id with at least 19 MiB and 2 passes, never the password', async () => {
    const hash = await hasher.hash('violet-harbour-lantern-42');
    expect(hash).toMatch(/^\$argon2id\$v=19\$m=19456,p=1,t=2\$/);
    expect(hash).not.toContain('violet');
    expect(await hasher.verify(hash, 'violet-harbour-lantern-42')).toBe(true);
    expect(await hasher.verify(hash, 'violet-harbour-lantern-43')).toBe(false);
    expect(hasher.needsRehash(hash)).toBe(false);
  });

  it('upgrades weaker hashes', async () => {
    const weak = await argon2.hash('x', { type: argon2.argon2id, memoryCost: 4096, timeCost: 1 });
    expect(hasher.needsRehash(weak)).toBe(true);
  });

  it('answers false without an account, after the same argon2 work (the login API tests time it end to end)', async () => {
    expect(await hasher.verify(undefined, 'violet-harbour-lantern-42')).toBe(false);
  });
});
