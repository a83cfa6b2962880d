import { randomUUID } from 'node:crypto';
import { ACCOUNT_PATHS } from '@serendip/proto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiClient } from '../../test-support/api-client.js';
import { startTestApp, type TestApp } from '../../test-support/test-app.js';
import { GEO_LOCATOR, type GeoLocator, type Place } from './geo-ip.js';

const PASSWORD = 'violet-harbour-lantern-42';
const GEOLOCATION = ACCOUNT_PATHS.geolocation.replace(/^\/api/, '');
const from = (ip: string) => ({ 'X-Forwarded-For': ip });

describe('locations from the request address', () => {
  let test: TestApp;
  let usPlace: Place;
  let gbPlace: Place;

  beforeAll(async () => {
    test = await startTestApp({ TRUST_PROXY: 'loopback' });
    // What the bundled database says today (cities move between releases); this also opens it once, so no
    // sign-in below runs into the lookup budget on a busy machine.
    const geo = test.app.get<GeoLocator>(GEO_LOCATOR);
    usPlace = await geo.locate('8.8.8.8');
    gbPlace = await geo.locate('81.2.69.142');
    expect(usPlace.country).toBe('US');
    expect(gbPlace.country).toBe('GB');
  });
  afterAll(async () => {
    await test?.close();
  });

  async function signedUp() {
    const client = new ApiClient(test.base);
    const emailAddress = `location-${randomUUID().slice(0, 8)}@example.com`;
    const res = await client.call('POST', '/auth/signup', { emailAddress, password: PASSWORD });
    expect(res.status).toBe(201);
    return { client, emailAddress, userId: res.body._id as string };
  }

  const login = async (client: ApiClient, emailAddress: string, ip: string) => {
    const res = await client.call('POST', '/auth/login', { emailAddress, password: PASSWORD }, from(ip));
    expect(res.status).toBe(200);
    return res.body;
  };

  const locationEvents = async (userId: string) =>
    (await test.core.store.readStream(`identity-user-${userId}`)).filter((e) => e.type === 'LocationUpdated');

  it('a sign-in from a public address places the user and the session', async () => {
    const { client, emailAddress, userId } = await signedUp();
    // Sign-up came from a documentation address (ApiClient's own): nothing known yet.
    expect((await client.call('GET', '/auth/user-info')).body).toMatchObject({ country: null, city: null });

    const user = await login(client, emailAddress, '8.8.8.8');
    expect(user).toMatchObject(usPlace);
    expect((await client.call('GET', '/auth/user-info')).body).toMatchObject(usPlace);
    const sessions = (await client.call('GET', '/sessions')).body as { _id: string; isCurrent: boolean }[];
    const current = sessions.find((s) => s.isCurrent)!;
    expect(current).toMatchObject({ ...usPlace, ip: '8.8.8.8' });
    expect(sessions.filter((s) => !s.isCurrent)).toEqual([expect.objectContaining({ country: null, city: null })]);

    const [started] = await test.core.store.readStream(`identity-session-${current._id}`);
    expect(started).toMatchObject({ type: 'SessionStarted', data: { ...usPlace, userId } });
    // Personal data: stored encrypted, readable only while the user's key exists.
    const raw = await test.db
      .selectFrom('events')
      .select('data')
      .where('stream_id', '=', `identity-session-${current._id}`)
      .executeTakeFirstOrThrow();
    // Each place field is a sealed value, never the clear text. (A search of the JSON for "US" is no test:
    // base64 ciphertext contains those two letters about one time in ten.)
    const sealed = { $personal: expect.objectContaining({ sealed: expect.any(String) }) };
    expect(raw.data).toMatchObject({ country: sealed, city: sealed, ip: sealed });
    expect(await locationEvents(userId)).toHaveLength(1);
  });

  it('a sign-in from a private address keeps the known place', async () => {
    const { client, emailAddress, userId } = await signedUp();
    await login(client, emailAddress, '8.8.8.8');
    const user = await login(client, emailAddress, '127.0.0.1');
    expect(user).toMatchObject(usPlace);
    expect((await client.call('GET', '/auth/user-info')).body).toMatchObject(usPlace);
    const current = ((await client.call('GET', '/sessions')).body as { isCurrent: boolean }[]).find((s) => s.isCurrent);
    expect(current).toMatchObject({ country: null, city: null });
    // Signing in again from the same public address records nothing new either.
    await login(client, emailAddress, '8.8.8.8');
    expect(await locationEvents(userId)).toHaveLength(1);
  });

  it('POST /auth/geolocation is for signed-in users and takes no fields', async () => {
    expect((await new ApiClient(test.base).call('POST', GEOLOCATION, undefined, from('8.8.8.8'))).status).toBe(401);
    const { client, userId } = await signedUp();
    const forged = await client.call('POST', GEOLOCATION, { userId, city: 'Paris', country_name: 'France' });
    expect(forged.status).toBe(400);
    expect(forged.body.message).toEqual(expect.arrayContaining(['property userId should not exist']));
    expect((await client.call('GET', '/auth/user-info')).body).toMatchObject({ country: null, city: null });
  });

  it('POST /auth/geolocation updates from a new address, once, and not when unchanged', async () => {
    const { client, userId } = await signedUp();
    const first = await client.call('POST', GEOLOCATION, undefined, from('8.8.8.8'));
    expect(first.status).toBe(200);
    expect(first.body).toEqual({ message: 'Location updated', ...usPlace });
    expect((await client.call('GET', '/auth/user-info')).body).toMatchObject(usPlace);
    expect(await locationEvents(userId)).toHaveLength(1);

    const again = await client.call('POST', GEOLOCATION, {}, from('8.8.8.8'));
    expect(again.body).toEqual({ message: 'Location unchanged', ...usPlace });
    expect(await locationEvents(userId)).toHaveLength(1);

    const moved = await client.call('POST', GEOLOCATION, undefined, from('81.2.69.142'));
    expect(moved.body).toEqual({ message: 'Location updated', ...gbPlace });
    expect((await client.call('GET', '/auth/user-info')).body).toMatchObject(gbPlace);
    const events = await locationEvents(userId);
    expect(events).toHaveLength(2);
    expect(events[1]!.data).toMatchObject({ userId, ...gbPlace });

    // A private address says nothing about where the user is.
    const local = await client.call('POST', GEOLOCATION, undefined, from('192.168.1.20'));
    expect(local.body).toMatchObject({ country: null, city: null });
    expect((await client.call('GET', '/auth/user-info')).body).toMatchObject(gbPlace);
    expect(await locationEvents(userId)).toHaveLength(2);
  });

  it('POST /auth/geolocation is limited per user (429 with Retry-After)', async () => {
    const { client } = await signedUp();
    for (let i = 0; i < 10; i++) {
      expect((await client.call('POST', GEOLOCATION, undefined, from('127.0.0.1'))).status).toBe(200);
    }
    const refused = await client.call('POST', GEOLOCATION, undefined, from('127.0.0.1'));
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
  });
});

describe('locations without a trusted proxy', () => {
  let test: TestApp;

  beforeAll(async () => {
    test = await startTestApp({ TRUST_PROXY: 'false' });
  });
  afterAll(async () => {
    await test?.close();
  });

  it('ignores X-Forwarded-For: the place is that of the connection itself (loopback: unknown)', async () => {
    const client = new ApiClient(test.base);
    const emailAddress = `location-${randomUUID().slice(0, 8)}@example.com`;
    expect((await client.call('POST', '/auth/signup', { emailAddress, password: PASSWORD })).status).toBe(201);
    const login = await client.call('POST', '/auth/login', { emailAddress, password: PASSWORD }, from('8.8.8.8'));
    expect(login.body).toMatchObject({ country: null, city: null });
    const sessions = (await client.call('GET', '/sessions')).body as { ip: string; country: string | null }[];
    expect(sessions.every((s) => s.country === null && s.ip !== '8.8.8.8')).toBe(true);
    const manual = await client.call('POST', GEOLOCATION, undefined, from('8.8.8.8'));
    expect(manual.status).toBe(200);
    expect(manual.body).toMatchObject({ country: null, city: null });
  });
});
