import { randomUUID } from 'node:crypto';
import { QueryBus } from '@nestjs/cqrs';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiClient } from '../../test-support/api-client.js';
import { startTestApp, type TestApp } from '../../test-support/test-app.js';
import { GetMatchPreferences } from '../queries/match-preferences/match-preferences.query.js';
import { MATCH_PREFERENCES_LIMIT } from './match-preferences.controller.js';

const PASSWORD = 'violet-harbour-42';
const PATH = '/user/match-preferences';

describe('match preferences over HTTP', () => {
  let test: TestApp;

  beforeAll(async () => {
    test = await startTestApp();
  });
  afterAll(async () => {
    await test?.close();
  });

  async function finishedUser() {
    const client = new ApiClient(test.base);
    const emailAddress = `prefs-${randomUUID().slice(0, 8)}@example.com`;
    expect((await client.call('POST', '/auth/signup', { emailAddress, password: PASSWORD })).status).toBe(201);
    const done = await client.call('POST', '/auth/signup/complete', {
      firstName: 'Ada',
      lastName: 'Lovelace',
      username: `ada${randomUUID().slice(0, 6)}`,
      gender: 'female',
      birthDate: '1990-12-10',
    });
    expect(done.status).toBe(200);
    return { client, userId: (done.body as { _id: string })._id };
  }

  const eventsOf = async (userId: string) =>
    (
      await sql<{
        data: string;
      }>`select data::text from events where stream_id = ${`matching-preferences-${userId}`}`.execute(test.db)
    ).rows;

  it('has none before the first save, then answers the saved set (interests tidied), for that account only', async () => {
    const ada = await finishedUser();
    const bob = await finishedUser();
    expect((await ada.client.call('GET', PATH)).body).toEqual({ filters: null });

    const saved = await ada.client.call('PUT', PATH, {
      gender: 'female',
      country: 'DE',
      ageRange: [25, 40],
      interests: [' Chess ', 'chess', 'Hiking'],
    });
    expect(saved.status).toBe(200);
    const expected = { gender: 'female', country: 'DE', ageRange: [25, 40], interests: ['chess', 'hiking'] };
    const got = await ada.client.call('GET', PATH);
    expect(got.body).toEqual({ filters: expected });
    // Whom one looks for is personal: no cache (a shared one, or the browser's disk) keeps the answer.
    expect(got.headers.get('Cache-Control')).toBe('private, no-store');
    // Another account has its own (none yet): nothing in the path or body can name someone else's.
    expect((await bob.client.call('GET', PATH)).body).toEqual({ filters: null });
    // Not signed in: no answer at all.
    expect((await new ApiClient(test.base).call('GET', PATH)).status).toBe(401);
    expect((await new ApiClient(test.base).call('PUT', PATH, expected)).status).toBe(401);
  });

  it('records a change once, and an unchanged save not at all; whom one looks for is sealed in the log', async () => {
    const { client, userId } = await finishedUser();
    const filters = { gender: null, country: 'NL', ageRange: [30, 45], interests: ['zebrafishkeeping'] };
    await client.call('PUT', PATH, filters);
    await client.call('PUT', PATH, filters);
    expect(await eventsOf(userId)).toHaveLength(1);
    await client.call('PUT', PATH, { ...filters, ageRange: [30, 50] });
    const events = await eventsOf(userId);
    expect(events).toHaveLength(2);
    expect(events.map((e) => e.data).join('\n')).not.toMatch(/zebrafishkeeping|"NL"/);
    expect((await client.call('GET', PATH)).body).toEqual({ filters: { ...filters, ageRange: [30, 50] } });
  });

  it('limits how often the set may change (429 with Retry-After); an unchanged save is never refused', async () => {
    const ada = await finishedUser();
    const set = (age: number) => ({ gender: null, country: null, ageRange: [18, age], interests: [] });
    for (let i = 0; i < MATCH_PREFERENCES_LIMIT.points; i++) {
      expect((await ada.client.call('PUT', PATH, set(40 + (i % 2)))).status).toBe(200);
    }
    const refused = await ada.client.call('PUT', PATH, set(60));
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('Retry-After'))).toBeGreaterThan(0);
    expect(await eventsOf(ada.userId)).toHaveLength(MATCH_PREFERENCES_LIMIT.points);
    // The same set again (a Start with nothing changed) still answers 200, recording nothing.
    expect((await ada.client.call('PUT', PATH, set(40 + ((MATCH_PREFERENCES_LIMIT.points - 1) % 2)))).status).toBe(200);
    expect(await eventsOf(ada.userId)).toHaveLength(MATCH_PREFERENCES_LIMIT.points);
  });

  it('refuses a bad set with a message per field, keeping the saved one', async () => {
    const { client } = await finishedUser();
    const good = { gender: 'male', country: null, ageRange: [18, 35] };
    await client.call('PUT', PATH, good);
    for (const [body, field] of [
      [{ ...good, ageRange: [40, 30] }, /ageRange/],
      [{ ...good, ageRange: [10, 30] }, /ageRange/],
      [{ ...good, gender: 'other' }, /gender/],
      [{ ...good, country: 'Germany' }, /country/],
      [{ ...good, interests: ['a', 'b', 'c', 'd', 'e', 'f'] }, /interests/],
      [{ ...good, interests: ['<script>'] }, /interests/],
      ['nonsense', /./],
    ] as const) {
      const res = await client.call('PUT', PATH, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(JSON.stringify(res.body)).toMatch(field);
    }
    expect((await client.call('GET', PATH)).body).toEqual({ filters: good });
  });

  it('forgets them with the account', async () => {
    const { client, userId } = await finishedUser();
    await client.call('PUT', PATH, { gender: null, country: null, ageRange: [20, 30], interests: ['jazz'] });
    expect((await client.call('POST', '/user/delete-account', { currentPassword: PASSWORD })).status).toBe(200);
    expect(await test.app.get(QueryBus).execute(new GetMatchPreferences(userId))).toBeNull();
  });
});
