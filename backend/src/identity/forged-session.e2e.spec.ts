import { hkdfSync, randomBytes } from 'node:crypto';
import { decodeJwt, SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiClient } from '../test-support/api-client.js';
import { startTestApp, type TestApp } from '../test-support/test-app.js';

const PERSONAL_DATA_KEY = randomBytes(32);

/**
 * Access tokens are signed with JWT_SECRET alone. They used to be signed with a key derived from PERSONAL_DATA_KEY,
 * so anyone holding that key (or a backup that holds it) could sign in as anyone with a live session.
 */
describe('a session forged from the personal-data key', () => {
  let test: TestApp;

  beforeAll(async () => {
    test = await startTestApp({
      PERSONAL_DATA_KEY: PERSONAL_DATA_KEY.toString('base64'),
      JWT_SECRET: randomBytes(32).toString('base64'),
    });
  });
  afterAll(async () => {
    await test?.close();
  });

  it('is refused, while the real one works', async () => {
    const victim = new ApiClient(test.base);
    const signup = await victim.call('POST', '/auth/signup', {
      emailAddress: `victim-${Date.now()}@example.com`,
      password: 'violet-harbour-lantern-42',
    });
    expect(signup.status).toBe(201);
    const { sub, sid } = decodeJwt(victim.cookies.get('accessToken')!);
    expect((await victim.call('GET', '/auth/user-info')).status).toBe(200);

    // The old way to make the signing key, from the personal-data key.
    const derived = new Uint8Array(
      hkdfSync('sha256', PERSONAL_DATA_KEY, Buffer.alloc(0), 'serendip access token v1', 32),
    );
    const forged = await new SignJWT({ sid })
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject(sub!)
      .setIssuedAt()
      .setExpirationTime('10m')
      .sign(derived);
    const attacker = new ApiClient(test.base);
    attacker.cookies.set('accessToken', forged);
    expect((await attacker.call('GET', '/auth/user-info')).status).toBe(401);
  });
});
