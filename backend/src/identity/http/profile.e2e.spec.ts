import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiClient } from '../../test-support/api-client.js';
import { startTestApp, type TestApp } from '../../test-support/test-app.js';

describe('profile over HTTP', () => {
  let test: TestApp;

  beforeAll(async () => {
    test = await startTestApp();
  });
  afterAll(async () => {
    await test?.close();
  });

  async function finishedUser() {
    const client = new ApiClient(test.base);
    const emailAddress = `profile-${randomUUID().slice(0, 8)}@example.com`;
    expect((await client.call('POST', '/auth/signup', { emailAddress, password: 'violet-harbour-42' })).status).toBe(
      201,
    );
    const done = await client.call('POST', '/auth/signup/complete', {
      firstName: 'Ada',
      lastName: 'Lovelace',
      username: `ada${randomUUID().slice(0, 6)}`,
      gender: 'female',
      birthDate: '1990-12-10',
    });
    expect(done.status).toBe(200);
    return { client, user: done.body };
  }

  it('saves names, phone (as E.164) and bio, and user-info shows them', async () => {
    const { client } = await finishedUser();
    const res = await client.call('POST', '/user/edit-profile', {
      firstName: '  Augusta ',
      phoneNumber: '1 (702) 555-0147',
      bio: 'Poetical science.',
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      firstName: 'Augusta',
      lastName: 'Lovelace',
      phoneNumber: '+17025550147',
      bio: 'Poetical science.',
    });
    expect((await client.call('GET', '/auth/user-info')).body).toMatchObject({
      firstName: 'Augusta',
      phoneNumber: '+17025550147',
    });
    // '' clears a field.
    expect((await client.call('POST', '/user/edit-profile', { bio: '' })).body.bio).toBeNull();
  });

  it('refuses bad input with a 400 per field and changes nothing', async () => {
    const { client } = await finishedUser();
    const bad = await client.call('POST', '/user/edit-profile', {
      firstName: '<b>Ada</b>',
      bio: 'x'.repeat(501),
      isAdmin: true,
    });
    expect(bad.status).toBe(400);
    expect(bad.body.message).toEqual(
      expect.arrayContaining([
        'firstName must not contain < or >',
        'bio must be shorter than or equal to 500 characters',
        'property isAdmin should not exist',
      ]),
    );
    const phone = await client.call('POST', '/user/edit-profile', { phoneNumber: '12345' });
    expect(phone.status).toBe(400);
    expect(phone.body.message).toEqual([
      'phoneNumber: enter a valid phone number with its country code, e.g. +1 702 123 4567',
    ]);
    expect((await client.call('GET', '/auth/user-info')).body).toMatchObject({ firstName: 'Ada', phoneNumber: null });
  });

  it('is for the signed-in user only', async () => {
    expect((await new ApiClient(test.base).call('POST', '/user/edit-profile', { bio: 'hi' })).status).toBe(401);
  });

  it('keeps the new phone number and bio out of the events table in clear', async () => {
    const { client } = await finishedUser();
    await client.call('POST', '/user/edit-profile', { phoneNumber: '+442071838750', bio: 'Analytical engine fan' });
    const { rows } = await sql<{ data: string }>`select data::text from events where type = 'ProfileEdited'`.execute(
      test.db,
    );
    expect(rows.length).toBeGreaterThan(0);
    expect(rows.map((r) => r.data).join('\n')).not.toMatch(/442071838750|Analytical engine/);
  });
});
