import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiClient } from '../../test-support/api-client.js';
import { type SmtpSink, startSmtpSink } from '../../test-support/smtp-sink.js';
import { openSystemSocket } from '../../test-support/video-users.js';
import { startTestApp, type TestApp } from '../../test-support/test-app.js';

const PASSWORD = 'violet-harbour-lantern-42';

describe('account changes over HTTP', () => {
  let test: TestApp;
  let sink: SmtpSink;

  beforeAll(async () => {
    sink = await startSmtpSink();
    test = await startTestApp({ SMTP_URL: sink.url });
  });
  afterAll(async () => {
    await test?.close();
    await sink?.stop();
  });

  const address = () => `account-${randomUUID().slice(0, 8)}@example.com`;

  async function finishedUser(emailAddress = address()) {
    const client = new ApiClient(test.base);
    expect((await client.call('POST', '/auth/signup', { emailAddress, password: PASSWORD })).status).toBe(201);
    const done = await client.call('POST', '/auth/signup/complete', {
      firstName: 'Grace',
      lastName: 'Hopper',
      username: `grace${randomUUID().slice(0, 6)}`,
      gender: 'female',
      birthDate: '1990-12-09',
    });
    expect(done.status).toBe(200);
    return { client, emailAddress, userId: done.body._id as string };
  }

  const login = (emailAddress: string, password: string) =>
    new ApiClient(test.base).call('POST', '/auth/login', { emailAddress, password });

  it('changes the password only with the current one, and can end the other sessions', async () => {
    const { client, emailAddress } = await finishedUser();
    const other = new ApiClient(test.base);
    expect((await other.call('POST', '/auth/login', { emailAddress, password: PASSWORD })).status).toBe(200);

    const wrong = await client.call('POST', '/user/edit-account', {
      currentPassword: 'not-my-password',
      newPassword: 'new-harbour-lantern-43',
    });
    expect(wrong.status).toBe(400);
    expect(wrong.body.message).toEqual(['currentPassword: the current password is not right']);

    const changed = await client.call('POST', '/user/edit-account', {
      currentPassword: PASSWORD,
      newPassword: 'new-harbour-lantern-43',
      endOtherSessions: true,
    });
    expect(changed.status).toBe(200);
    expect(changed.body.endedSessions).toBe(1);
    expect((await other.call('GET', '/auth/user-info')).status).toBe(401);
    expect((await client.call('GET', '/auth/user-info')).status).toBe(200);
    expect((await login(emailAddress, PASSWORD)).status).toBe(401);
    expect((await login(emailAddress, 'new-harbour-lantern-43')).status).toBe(200);
  });

  it('ends the other sessions with a new password unless asked not to, and voids reset links and sign-in codes', async () => {
    const { client, emailAddress } = await finishedUser();
    const other = new ApiClient(test.base);
    expect((await other.call('POST', '/auth/login', { emailAddress, password: PASSWORD })).status).toBe(200);
    // A reset link asked for earlier (say, by whoever knew the old password) is still in the mailbox.
    await new ApiClient(test.base).call('POST', '/auth/password-reset', { emailAddress });
    const link = await sink.waitFor((m) => m.to.includes(emailAddress) && /Reset your/.test(m.subject));
    const token = /reset-password\/([\w-]+)/.exec(link.text)![1]!;

    const changed = await client.call('POST', '/user/edit-account', {
      currentPassword: PASSWORD,
      newPassword: 'new-harbour-lantern-43',
    });
    expect(changed.status).toBe(200);
    expect(changed.body.endedSessions).toBe(1);
    expect((await other.call('GET', '/auth/user-info')).status).toBe(401);
    const reset = await new ApiClient(test.base).call('POST', '/auth/reset-password', {
      token,
      newPassword: 'attacker-harbour-lantern-44',
    });
    expect(reset.status).toBe(400);
    expect((await login(emailAddress, 'new-harbour-lantern-43')).status).toBe(200);
  });

  it('moves to a new e-mail address only once the link mailed there is followed, and tells the old one', async () => {
    const { client, emailAddress } = await finishedUser();
    const newAddress = address();
    const res = await client.call('POST', '/user/edit-account', {
      emailAddress: newAddress,
      currentPassword: PASSWORD,
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ pendingEmailAddress: newAddress, user: { emailAddress } });
    // Not yet: the old address still logs in.
    expect((await login(emailAddress, PASSWORD)).status).toBe(200);

    const mail = await sink.waitFor((m) => m.to.includes(newAddress));
    const token = /verify-email\?token=([\w-]+)/.exec(mail.text)![1]!;
    const confirmed = await new ApiClient(test.base).call('POST', '/auth/verify-email', { token });
    expect(confirmed.body).toEqual({ message: 'E-mail address confirmed' });

    expect((await client.call('GET', '/auth/user-info')).body).toMatchObject({ emailAddress: newAddress });
    expect((await login(newAddress, PASSWORD)).status).toBe(200);
    expect((await login(emailAddress, PASSWORD)).status).toBe(401);
    const notice = await sink.waitFor((m) => m.to.includes(emailAddress) && /was changed/.test(m.subject));
    expect(notice.text).toContain(`${newAddress[0]}•••@example.com`);
  });

  it('answers the same for an address another account holds, and leaves it with its owner', async () => {
    const owner = await finishedUser();
    const { client, emailAddress } = await finishedUser();
    const res = await client.call('POST', '/user/edit-account', {
      emailAddress: owner.emailAddress,
      currentPassword: PASSWORD,
    });
    expect(res.status).toBe(200);
    expect(res.body.pendingEmailAddress).toBe(owner.emailAddress);
    const notice = await sink.waitFor((m) => m.to.includes(owner.emailAddress) && /tried to move/.test(m.subject));
    expect(notice.text).not.toMatch(/token=/);
    expect((await client.call('GET', '/auth/user-info')).body.emailAddress).toBe(emailAddress);
  });

  it('refuses a malformed address with a 400 and a blank one changes nothing', async () => {
    const { client, emailAddress } = await finishedUser();
    const bad = await client.call('POST', '/user/edit-account', { emailAddress: 'nope', currentPassword: PASSWORD });
    expect(bad.status).toBe(400);
    expect(bad.body.message).toEqual(['emailAddress must be an e-mail address']);
    const blank = await client.call('POST', '/user/edit-account', { emailAddress: '' });
    expect(blank.status).toBe(200);
    expect(blank.body.user.emailAddress).toBe(emailAddress);
  });

  it('tells every open socket of a deleted account why, then closes it', async () => {
    const { client } = await finishedUser();
    const socket = await openSystemSocket(test.base, client);
    // Registered for pushes a moment after it connects.
    await new Promise((r) => setTimeout(r, 300));
    const told = new Promise<unknown>((resolve) => socket.once('sessionEnded', resolve));
    const closed = new Promise<void>((resolve) => socket.once('disconnect', () => resolve()));
    expect((await client.call('POST', '/user/delete-account', { currentPassword: PASSWORD })).status).toBe(200);
    expect(await told).toEqual({
      eventId: expect.any(String),
      code: 'account-deleted',
      reason: 'Account deleted successfully',
    });
    await closed;
  });

  it('deletes the account: sessions end, the address is free, and nothing personal can be read any more', async () => {
    const { client, emailAddress, userId } = await finishedUser();
    // Values no other test uses, so the whole store and every table can be searched for them.
    const mark = randomUUID().slice(0, 8);
    const [firstName, lastName, bio] = [`Zephyrine${mark}`, `Quill${mark}`, `Compilers ${mark}!`];
    await client.call('POST', '/user/edit-profile', { firstName, lastName, phoneNumber: '+442071838750', bio });
    expect((await client.call('POST', '/user/delete-account', { currentPassword: 'wrong-one-123' })).status).toBe(400);

    const res = await client.call('POST', '/user/delete-account', { currentPassword: PASSWORD });
    expect(res.status).toBe(200);
    expect(res.setCookies.some((c) => c.startsWith('accessToken=;'))).toBe(true);
    expect((await client.call('GET', '/auth/user-info')).status).toBe(401);
    expect((await login(emailAddress, PASSWORD)).status).toBe(401);

    // Every event in the store reads as erased, and no table (read models included) holds anything personal.
    const own = JSON.stringify((await test.core.store.readStream(`identity-user-${userId}`)).map((e) => e.data));
    for (const secret of [emailAddress, 'Grace', 'Hopper', '1990-12-09', '+442071838750', bio]) {
      expect(own).not.toContain(secret);
    }
    const secrets = [emailAddress, firstName, lastName, bio];
    const text = JSON.stringify((await test.core.store.readAll()).map((e) => e.data));
    expect(text).toContain(userId);
    for (const secret of secrets) expect(text).not.toContain(secret);
    const { rows: tables } = await sql<{ name: string }>`select table_name as name from information_schema.tables
      where table_schema = current_schema() and table_type = 'BASE TABLE'`.execute(test.db);
    expect(tables.map((t) => t.name)).toEqual(expect.arrayContaining(['users', 'events', 'auth_sessions']));
    for (const { name } of tables) {
      const { rows: found } = await sql<{ row: string }>`select t::text as row from ${sql.table(name)} t
        where ${sql.join(
          secrets.map((secret) => sql`t::text ilike ${`%${secret}%`}`),
          sql` or `,
        )}`.execute(test.db);
      expect(found, `table ${name}`).toEqual([]);
    }
    const row = await test.db.selectFrom('users').selectAll().where('user_id', '=', userId).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ email_address: '', first_name: null, last_name: null, birth_date: null, bio: null });
    expect(row.deleted_at).not.toBeNull();
    const { rows } = await sql<{ n: number }>`select count(*)::int as n from subject_keys
      where subject_id = ${userId} and key is not null`.execute(test.db);
    expect(rows[0]!.n).toBe(0);
    const sessions = await test.db
      .selectFrom('auth_sessions')
      .select(['ip', 'user_agent', 'country', 'city', 'ended_at'])
      .where('user_id', '=', userId)
      .execute();
    expect(sessions.length).toBeGreaterThan(0);
    for (const session of sessions) {
      expect(session).toMatchObject({ ip: null, user_agent: null, country: null, city: null });
      expect(session.ended_at).not.toBeNull();
    }

    // The address is free for a new account.
    await finishedUser(emailAddress);
  });
});
