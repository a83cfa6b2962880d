import { randomBytes } from 'node:crypto';
import { SignJWT } from 'jose';
import { describe, expect, it } from 'vitest';
import { AccessTokens } from './access-tokens.js';

const claims = { userId: 'user-1', sessionId: 'session-1', signedInWithCode: false };
const now = () => new Date();

describe('access tokens (JWT_SECRET)', () => {
  it('are checked against the key they name: a rotated-out key still verifies while it is listed, then not', async () => {
    const [oldSecret, newSecret] = [randomBytes(32), randomBytes(32)];
    const token = await new AccessTokens([oldSecret]).sign(claims, now());
    expect(await new AccessTokens([newSecret, oldSecret]).verify(token)).toEqual(claims);
    expect(await new AccessTokens([newSecret]).verify(token)).toBeUndefined();
    // New tokens are signed with the first key.
    const fresh = await new AccessTokens([newSecret, oldSecret]).sign(claims, now());
    expect(await new AccessTokens([newSecret]).verify(fresh)).toEqual(claims);
  });

  it('say whether the session was started with the mailed code, and a token without the claim says it was not', async () => {
    const secret = randomBytes(32);
    const tokens = new AccessTokens([secret]);
    const withCode = { ...claims, signedInWithCode: true };
    expect(await tokens.verify(await tokens.sign(withCode, now()))).toEqual(withCode);
    expect(await tokens.verify(await tokens.sign(claims, now()))).toEqual(claims);
  });

  it('refuse a token that names no key, or a key that is not ours, even one signed with our secret', async () => {
    const secret = randomBytes(32);
    const tokens = new AccessTokens([secret]);
    const unnamed = await new SignJWT({ sid: 'session-1' })
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject('user-1')
      .setExpirationTime('10m')
      .sign(secret);
    const wrongKid = await new SignJWT({ sid: 'session-1' })
      .setProtectedHeader({ alg: 'HS256', kid: 'not-ours' })
      .setSubject('user-1')
      .setExpirationTime('10m')
      .sign(secret);
    expect(await tokens.verify(unnamed)).toBeUndefined();
    expect(await tokens.verify(wrongKid)).toBeUndefined();
  });
});
