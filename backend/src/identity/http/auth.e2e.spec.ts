import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { executeDecider } from '../../platform/cqrs/execute-decider.js';
import { ApiClient as Client } from '../../test-support/api-client.js';
import { freePort } from '../../test-support/global-postgres.js';
import { eventually } from '../../test-support/eventually.js';
import { type SmtpSink, startSmtpSink } from '../../test-support/smtp-sink.js';
import { startTestApp, type TestApp } from '../../test-support/test-app.js';
import { account } from '../domain/account.decider.js';
import { accountStream } from '../domain/account.events.js';
import { hashSecret } from '../sessions/secrets.js';

const PASSWORD = 'violet-harbour-lantern-42';

describe('identity over HTTP', () => {
  let test: TestApp;
  let sink: SmtpSink;
  const email = () => `person-${randomUUID().slice(0, 8)}@example.com`;

  beforeAll(async () => {
    sink = await startSmtpSink();
    test = await startTestApp({ SMTP_URL: sink.url });
  });
  afterAll(async () => {
    await test?.close();
    await sink?.stop();
  });

  async function signUp(address = email()) {
    const client = new Client(test.base);
    const res = await client.call('POST', '/auth/signup', { emailAddress: address, password: PASSWORD });
    expect(res.status).toBe(201);
    return { client, address, user: res.body };
  }

  it('signs up and in at once with HttpOnly, SameSite=Lax cookies, and answers no secret', async () => {
    const client = new Client(test.base);
    const address = email();
    const res = await client.call('POST', '/auth/signup', { emailAddress: address, password: PASSWORD });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      emailAddress: address,
      isFinishedSteps: false,
      emailVerified: false,
      isAdmin: false,
    });
    expect(Object.keys(res.body)).not.toEqual(expect.arrayContaining(['password', 'passwordHash']));
    expect(JSON.stringify(res.body)).not.toMatch(/argon2|accessToken|refreshToken/);
    for (const name of ['accessToken', 'refreshToken']) {
      const line = res.setCookies.find((c) => c.startsWith(`${name}=`));
      expect(line).toMatch(/HttpOnly/i);
      expect(line).toMatch(/SameSite=Lax/i);
      expect(line).toMatch(/Path=\//);
    }
    expect((await client.call('GET', '/auth/user-info')).body).toMatchObject({ emailAddress: address });
  });

  it('confirms the e-mail address with the single-use link that was e-mailed', async () => {
    const { client, address } = await signUp();
    const mail = await sink.waitFor((m) => m.to.includes(address));
    const token = /verify-email\?token=([\w-]+)/.exec(mail.text)![1]!;
    expect((await client.call('POST', '/auth/verify-email', { token })).status).toBe(200);
    expect((await client.call('POST', '/auth/verify-email', { token })).status).toBe(400);
    await expect.poll(async () => (await client.call('GET', '/auth/user-info')).body.emailVerified).toBe(true);
  });

  it('sends the sign-up link again on request, a few times an hour, and not once the address is confirmed', async () => {
    const { client, address } = await signUp();
    const first = await sink.waitFor((m) => m.to.includes(address));
    expect((await new Client(test.base).call('POST', '/auth/verify-email/resend')).status).toBe(401);
    const again = await client.call('POST', '/auth/verify-email/resend');
    expect(again.status).toBe(202);
    expect(again.body.message).toBe(`We sent a new link to ${address[0]}•••@example.com. It lasts 24 hours.`);
    const second = await sink.waitFor((m) => m.to.includes(address) && m !== first);
    const token = /verify-email\?token=([\w-]+)/.exec(second.text)![1]!;
    expect((await client.call('POST', '/auth/verify-email/resend')).status).toBe(202);
    const tooMany = await client.call('POST', '/auth/verify-email/resend');
    expect(tooMany.status).toBe(429);
    expect(Number(tooMany.headers.get('retry-after'))).toBeGreaterThan(0);

    expect((await client.call('POST', '/auth/verify-email', { token })).status).toBe(200);
    await expect.poll(async () => (await client.call('GET', '/auth/user-info')).body.emailVerified).toBe(true);
    const done = await client.call('POST', '/auth/verify-email/resend');
    expect(done.body.message).toBe('Your e-mail address is already confirmed.');
  });

  it('refuses bad input with a 400 that names each field, and unknown fields', async () => {
    const client = new Client(test.base);
    const bad = await client.call('POST', '/auth/signup', {
      emailAddress: 'not-an-address',
      password: PASSWORD,
      isAdmin: true,
    });
    expect(bad.status).toBe(400);
    expect(bad.body.message).toEqual(
      expect.arrayContaining(['emailAddress must be an e-mail address', 'property isAdmin should not exist']),
    );
    const common = await client.call('POST', '/auth/signup', { emailAddress: email(), password: 'password' });
    expect(common.status).toBe(400);
    expect(common.body.message).toEqual(['password: This password is one of the most common ones; choose another']);
    expect(
      (await client.call('POST', '/auth/signup', { emailAddress: email(), password: 'short1!' })).body.message,
    ).toEqual(['password: Password must be at least 8 characters']);
  });

  it('completes sign-up for an adult, refuses a 17-year-old and leaves their account unfinished', async () => {
    const { client } = await signUp();
    const profile = {
      firstName: 'Ada',
      lastName: 'Lovelace',
      username: `ada_${randomUUID().slice(0, 6)}`,
      gender: 'female',
    };
    const young = new Date();
    young.setUTCFullYear(young.getUTCFullYear() - 17);
    const underAge = await client.call('POST', '/auth/signup/complete', {
      ...profile,
      birthDate: young.toISOString().slice(0, 10),
    });
    expect(underAge.status).toBe(400);
    expect(underAge.body.message).toEqual(['you must be 18 or older to use Serendip']);
    expect((await client.call('GET', '/auth/user-info')).body.isFinishedSteps).toBe(false);

    const done = await client.call('POST', '/auth/signup/complete', { ...profile, birthDate: '1990-12-10' });
    expect(done.status).toBe(200);
    expect(done.body).toMatchObject({
      ...profile,
      userBirthDate: '1990-12-10',
      isFinishedSteps: true,
      userAge: expect.any(Number),
    });
  });

  it('answers a wrong password and an unknown address alike', async () => {
    const { address } = await signUp();
    const client = new Client(test.base);
    const wrong = await client.call('POST', '/auth/login', { emailAddress: address, password: 'wrong-password-123' });
    const unknown = await client.call('POST', '/auth/login', { emailAddress: email(), password: 'wrong-password-123' });
    expect([wrong.status, unknown.status]).toEqual([401, 401]);
    expect(wrong.body).toEqual(unknown.body);
    const right = await client.call('POST', '/auth/login', { emailAddress: address.toUpperCase(), password: PASSWORD });
    expect(right.status).toBe(200);
    expect(right.body.emailAddress).toBe(address);
  });

  it('takes as long to refuse an unknown address as a wrong password (no enumeration by timing)', async () => {
    const { address } = await signUp();
    const timed = async (emailAddress: string) => {
      const started = performance.now();
      const res = await new Client(test.base).call('POST', '/auth/login', { emailAddress, password: 'wrong-123-abc' });
      expect(res.status).toBe(401);
      return performance.now() - started;
    };
    const known: number[] = [];
    const unknown: number[] = [];
    // Interleaved, so load on the machine falls on both alike; at most 4 failures stay under the account's limit.
    for (let i = 0; i < 4; i++) {
      known.push(await timed(address));
      unknown.push(await timed(email()));
    }
    const median = (xs: number[]) => xs.sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
    // Without the decoy hash an unknown address answers in a few ms against argon2's tens: a factor of 5 or more.
    expect(median(unknown)).toBeGreaterThan(median(known) * 0.5);
  });

  it('answers a sign-up with a taken address like any other, tells the owner, and leaves them the address', async () => {
    const { address } = await signUp();
    const first = await sink.waitFor((m) => m.to.includes(address));
    const intruder = new Client(test.base);
    const res = await intruder.call('POST', '/auth/signup', {
      emailAddress: address.toUpperCase(),
      password: 'intruder-harbour-77',
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ isFinishedSteps: false, emailVerified: false });

    const notice = await sink.waitFor((m) => m.to.some((to) => to.toLowerCase() === address) && m !== first);
    expect(notice.subject).toBe('Someone tried to sign up for Serendip with your e-mail address');
    expect(notice.text).not.toMatch(/verify-email\?token=/);
    // The address still logs in its owner only.
    const login = (password: string) =>
      new Client(test.base).call('POST', '/auth/login', { emailAddress: address, password });
    expect((await login('intruder-harbour-77')).status).toBe(401);
    expect((await login(PASSWORD)).status).toBe(200);
  });

  it('Address normalisation: a look-alike spelling of a taken address is the same mailbox, not a second account', async () => {
    const id = randomUUID().slice(0, 8);
    const { address } = await signUp(`office-${id}@example.com`);
    const first = await sink.waitFor((m) => m.to.includes(address));
    // The "ﬃ" ligature and a full-width domain letter fold to the plain address (NFKC).
    const lookalike = `oﬃce-${id}@ｅxample.com`;
    const intruder = await new Client(test.base).call('POST', '/auth/signup', {
      emailAddress: `oﬃce-${id}@example.com`,
      password: 'intruder-harbour-77',
    });
    expect(intruder.status).toBe(201);
    const notice = await sink.waitFor((m) => m.to.includes(address) && m !== first);
    expect(notice.subject).toBe('Someone tried to sign up for Serendip with your e-mail address');

    const login = await new Client(test.base).call('POST', '/auth/login', {
      emailAddress: lookalike,
      password: PASSWORD,
    });
    expect(login.status).toBe(200);
    expect(login.body.emailAddress).toBe(address);
    expect(
      (
        await new Client(test.base).call('POST', '/auth/login', {
          emailAddress: lookalike,
          password: 'intruder-harbour-77',
        })
      ).status,
    ).toBe(401);
  });

  it('Admin squatting: an address never confirmed is released after 24 hours to whoever signs up and confirms it', async () => {
    const { address, user: squatter } = await signUp();
    // The squatter never follows the link; a day later the real owner signs up.
    await test.db
      .updateTable('account_emails')
      .set({ claimed_at: new Date(Date.now() - 25 * 3_600_000) })
      .where('user_id', '=', squatter._id)
      .execute();
    const owner = new Client(test.base);
    const before = sink.messages.length;
    expect(
      (await owner.call('POST', '/auth/signup', { emailAddress: address, password: 'owner-harbour-lantern-8' })).status,
    ).toBe(201);
    const link = await sink.waitFor((m) => m.to.includes(address) && sink.messages.indexOf(m) >= before);
    // The mail says the link moves the address away from an earlier account, for a mailbox owner who did not sign up.
    expect(link.subject).toBe('Confirm your e-mail address for a new Serendip account');
    expect(link.text).toMatch(/the earlier one can then no longer sign in with it/);
    const token = /verify-email\?token=([\w-]+)/.exec(link.text)?.[1];
    expect(token).toBeDefined();
    expect((await owner.call('POST', '/auth/verify-email', { token })).status).toBe(200);
    await expect.poll(async () => (await owner.call('GET', '/auth/user-info')).body.emailVerified).toBe(true);
    // The address now signs in its owner, not the squatter.
    const login = (password: string) =>
      new Client(test.base).call('POST', '/auth/login', { emailAddress: address, password });
    expect((await login(PASSWORD)).status).toBe(401);
    expect((await login('owner-harbour-lantern-8')).status).toBe(200);
  });

  it('Admin squatting: asking for the link again gives a second sign-up no link to an address held less than a day', async () => {
    const { address } = await signUp();
    const verifyLinks = () =>
      sink.messages.filter((m) => m.to.includes(address) && /verify-email\?token=/.test(m.text));
    await expect.poll(() => verifyLinks().length).toBe(1);
    const intruder = new Client(test.base);
    await intruder.call('POST', '/auth/signup', { emailAddress: address, password: 'intruder-harbour-77' });
    const resent = await intruder.call('POST', '/auth/verify-email/resend');
    expect(resent.status).toBe(202);
    expect(resent.body.message).toMatch(/^Another account holds this e-mail address for now/);
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(verifyLinks()).toHaveLength(1);
    // The holder still signs in with the address.
    expect(
      (await new Client(test.base).call('POST', '/auth/login', { emailAddress: address, password: PASSWORD })).status,
    ).toBe(200);
  });

  it('keeps a confirmed address for good, and an unconfirmed one for its first 24 hours', async () => {
    const age = async (userId: string, hours: number) =>
      test.db
        .updateTable('account_emails')
        .set({ claimed_at: new Date(Date.now() - hours * 3_600_000) })
        .where('user_id', '=', userId)
        .execute();
    const loginOf = (address: string) =>
      new Client(test.base).call('POST', '/auth/login', { emailAddress: address, password: PASSWORD });

    const fresh = await signUp();
    await age(fresh.user._id, 23);
    await new Client(test.base).call('POST', '/auth/signup', {
      emailAddress: fresh.address,
      password: 'early-harbour-8',
    });
    expect((await loginOf(fresh.address)).status).toBe(200);

    const confirmed = await signUp();
    const link = await sink.waitFor((m) => m.to.includes(confirmed.address) && /verify-email\?token=/.test(m.text));
    const token = /verify-email\?token=([\w-]+)/.exec(link.text)![1];
    expect((await confirmed.client.call('POST', '/auth/verify-email', { token })).status).toBe(200);
    await age(confirmed.user._id, 24 * 400);
    await new Client(test.base).call('POST', '/auth/signup', {
      emailAddress: confirmed.address,
      password: 'late-harbour-8',
    });
    expect((await loginOf(confirmed.address)).status).toBe(200);
  });

  it('with two-factor on, a right password buys at most 5 codes in 15 minutes, and wrong codes count across them', async () => {
    const { address, user } = await signUp();
    const meta = { commandId: randomUUID(), correlationId: randomUUID(), actor: user._id, now: new Date() };
    await executeDecider(test.core, accountStream(user._id), account, { type: 'EnableTwoFactor' }, meta);
    // From ever-new addresses, so only the per-account limits can refuse.
    const logIn = (i: number) =>
      new Client(test.base).call(
        'POST',
        '/auth/login',
        { emailAddress: address, password: PASSWORD },
        { 'X-Forwarded-For': `203.0.113.${150 + i}` },
      );
    const challenges: string[] = [];
    for (let i = 0; i < 3; i++) {
      const answer = await logIn(i);
      expect(answer.status).toBe(200);
      challenges.push(answer.body.challengeId);
    }
    const mailsBefore = sink.messages.length;
    const fourth = await logIn(3);
    const code = /\b(\d{6})\b/.exec(
      (await sink.waitFor((m) => /sign-in code/.test(m.subject) && sink.messages.indexOf(m) >= mailsBefore)).text,
    )![1]!;
    const wrong = code === '000000' ? '111111' : '000000';
    // Five wrong codes on each of two challenges: every try the old per-challenge count allowed.
    for (const challengeId of challenges.slice(0, 2)) {
      for (let i = 0; i < 5; i++) {
        await new Client(test.base).call('POST', '/auth/login/verify', { challengeId, code: wrong });
      }
    }
    // Ten wrong codes for this account: even the right code of a fresh challenge waits now.
    const late = await new Client(test.base).call('POST', '/auth/login/verify', {
      challengeId: fourth.body.challengeId,
      code,
    });
    expect(late.status).toBe(429);
    expect((await logIn(4)).status).toBe(200);
    // The sixth code in 15 minutes is not sent.
    expect((await logIn(5)).status).toBe(429);
  });

  it('with two-factor on, asks for the e-mailed code, refuses wrong ones, and stops after 5 tries', async () => {
    const { address, user } = await signUp();
    const meta = { commandId: randomUUID(), correlationId: randomUUID(), actor: user._id, now: new Date() };
    await executeDecider(test.core, accountStream(user._id), account, { type: 'EnableTwoFactor' }, meta);

    const client = new Client(test.base);
    const first = await client.call('POST', '/auth/login', { emailAddress: address, password: PASSWORD });
    expect(first.body).toEqual({ twoFactorRequired: true, challengeId: expect.any(String) });
    expect(first.setCookies).toEqual([]);
    const code = /\b(\d{6})\b/.exec(
      (await sink.waitFor((m) => m.to.includes(address) && /sign-in code/.test(m.subject))).text,
    )![1]!;
    const wrongCode = code === '000000' ? '111111' : '000000';
    expect(
      (await client.call('POST', '/auth/login/verify', { challengeId: first.body.challengeId, code: wrongCode }))
        .status,
    ).toBe(401);
    const ok = await client.call('POST', '/auth/login/verify', { challengeId: first.body.challengeId, code });
    expect(ok.status).toBe(200);
    expect((await client.call('GET', '/auth/user-info')).body._id).toBe(user._id);

    const second = await client.call('POST', '/auth/login', { emailAddress: address, password: PASSWORD });
    const secondCode = /\b(\d{6})\b/.exec(
      (await sink.waitFor((m) => m.to.includes(address) && m.text.includes('sign-in code') && !m.text.includes(code)))
        .text,
    )![1]!;
    for (let i = 0; i < 5; i++)
      await client.call('POST', '/auth/login/verify', {
        challengeId: second.body.challengeId,
        code: secondCode === '000000' ? '111111' : '000000',
      });
    expect(
      (await client.call('POST', '/auth/login/verify', { challengeId: second.body.challengeId, code: secondCode }))
        .status,
    ).toBe(401);
  });

  it('rotates the refresh token and ends the whole session when an old one comes back (theft)', async () => {
    const { client } = await signUp();
    const stolen = client.cookies.get('refreshToken')!;
    const refreshed = await client.call('POST', '/auth/refresh-token');
    expect(refreshed.status).toBe(200);
    expect(refreshed.body).toEqual({ expiresInSeconds: 900 });
    expect(client.cookies.get('refreshToken')).not.toBe(stolen);
    // Past the few seconds two tabs of one browser may race in, an old token coming back is theft.
    await test.db
      .updateTable('auth_refresh_tokens')
      .set({ rotated_at: new Date(Date.now() - 60_000) })
      .where('token_hash', '=', hashSecret(stolen))
      .execute();

    const thief = new Client(test.base);
    thief.cookies.set('refreshToken', stolen);
    expect((await thief.call('POST', '/auth/refresh-token')).status).toBe(401);
    // The rightful owner's session ended too: their tokens no longer work.
    expect((await client.call('GET', '/auth/user-info')).status).toBe(401);
    expect((await client.call('POST', '/auth/refresh-token')).status).toBe(401);
  });

  it('accepts the access token as a Bearer header, and logs out for good', async () => {
    const { client } = await signUp();
    const body = { accessToken: client.cookies.get('accessToken')! };
    const bare = new Client(test.base);
    expect(
      (await bare.call('GET', '/auth/user-info', undefined, { Authorization: `Bearer ${body.accessToken}` })).status,
    ).toBe(200);
    expect((await client.call('POST', '/auth/logout')).status).toBe(200);
    expect(
      (await bare.call('GET', '/auth/user-info', undefined, { Authorization: `Bearer ${body.accessToken}` })).status,
    ).toBe(401);
    expect((await new Client(test.base).call('GET', '/auth/user-info')).status).toBe(401);
  });

  it('keeps e-mail, names, birth date and IP out of the events table in clear', async () => {
    const { client, address } = await signUp();
    await client.call('POST', '/auth/signup/complete', {
      firstName: 'Margaret',
      lastName: 'Hamilton',
      username: `mh_${randomUUID().slice(0, 6)}`,
      gender: 'female',
      birthDate: '1986-08-17',
    });
    const { rows } = await sql<{
      text: string;
    }>`select string_agg(data::text || metadata::text, ' ') as text from events`.execute(test.db);
    for (const secret of [address, 'Margaret', 'Hamilton', '1986-08-17', '127.0.0.1', '$argon2id'])
      expect(rows[0]!.text).not.toContain(secret);
  });

  it('answers a password-reset request alike for any address, and the e-mailed link resets once and ends old sessions', async () => {
    const { client: oldSession, address } = await signUp();
    const stranger = new Client(test.base);
    const known = await stranger.call('POST', '/auth/password-reset', { emailAddress: address });
    const unknown = await stranger.call('POST', '/auth/password-reset', { emailAddress: email() });
    expect([known.status, unknown.status]).toEqual([202, 202]);
    expect(known.body).toEqual(unknown.body);

    const mail = await sink.waitFor((m) => m.to.includes(address) && /Reset/.test(m.subject));
    const token = /reset-password\/([\w-]+)/.exec(mail.text)![1]!;
    const weak = await stranger.call('POST', '/auth/reset-password', { token, newPassword: 'password' });
    expect(weak.status).toBe(400);
    const reset = await stranger.call('POST', '/auth/reset-password', { token, newPassword: 'new-harbour-lantern-43' });
    expect(reset.status).toBe(200);
    expect(
      (await stranger.call('POST', '/auth/reset-password', { token, newPassword: 'other-harbour-lantern-44' })).status,
    ).toBe(400);

    expect((await oldSession.call('GET', '/auth/user-info')).status).toBe(401);
    expect(
      (await new Client(test.base).call('POST', '/auth/login', { emailAddress: address, password: PASSWORD })).status,
    ).toBe(401);
    expect(
      (
        await new Client(test.base).call('POST', '/auth/login', {
          emailAddress: address,
          password: 'new-harbour-lantern-43',
        })
      ).status,
    ).toBe(200);
  });

  it('e-mails a reset link that lasts 30 minutes', async () => {
    const { address } = await signUp();
    const stranger = new Client(test.base);
    const asked = Date.now();
    await stranger.call('POST', '/auth/password-reset', { emailAddress: address });
    const mail = await sink.waitFor((m) => m.to.includes(address) && /Reset/.test(m.subject));
    const token = /reset-password\/([\w-]+)/.exec(mail.text)![1]!;
    const row = await test.db
      .selectFrom('auth_email_tokens')
      .select('expires_at')
      .where('token_hash', '=', hashSecret(token))
      .executeTakeFirstOrThrow();
    const life = new Date(row.expires_at).getTime() - asked;
    expect(life).toBeGreaterThan(29.5 * 60_000);
    expect(life).toBeLessThanOrEqual(30 * 60_000 + 5_000);

    // Half an hour later (the clock moved by moving the deadline): the link no longer works, the password stays.
    await test.db
      .updateTable('auth_email_tokens')
      .set({ expires_at: new Date(Date.now() - 1_000) })
      .where('token_hash', '=', hashSecret(token))
      .execute();
    const late = await stranger.call('POST', '/auth/reset-password', { token, newPassword: 'late-harbour-lantern-45' });
    expect(late.status).toBe(400);
    expect(late.body.message).toEqual(['token: this link has expired or was already used']);
    expect(
      (await new Client(test.base).call('POST', '/auth/login', { emailAddress: address, password: PASSWORD })).status,
    ).toBe(200);
  });

  it('sends at most 3 e-mails an hour to one address, without saying so', async () => {
    const { address } = await signUp(); // the verification mail is the first
    const client = new Client(test.base);
    for (let i = 0; i < 4; i++)
      expect((await client.call('POST', '/auth/password-reset', { emailAddress: address })).status).toBe(202);
    const toAddress = () => sink.messages.filter((m) => m.to.includes(address));
    await eventually(
      () => toAddress().length >= 3,
      20_000,
      () => `${toAddress().length} mails arrived`,
    );
    await new Promise((r) => setTimeout(r, 1_000)); // a fourth, if it were sent, lands here
    expect(toAddress()).toHaveLength(3);
  });

  it('stops password guessing after 10 failures per account with 429 and Retry-After, even with the right password', async () => {
    const { address } = await signUp();
    for (let i = 0; i < 10; i++) {
      // Ten different people (addresses) guessing: the account limit still holds.
      expect(
        (
          await new Client(test.base).call('POST', '/auth/login', {
            emailAddress: address,
            password: `guess-${i}-lantern`,
          })
        ).status,
      ).toBe(401);
    }
    const res = await fetch(`${test.base}/api/auth/login`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'X-Forwarded-For': '203.0.113.9' },
      body: JSON.stringify({ emailAddress: address, password: PASSWORD }),
    });
    expect(res.status).toBe(429);
    expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
  });

  it('Targeted lockout: failures from elsewhere do not lock the owner out of a browser they signed in from', async () => {
    const { client: owner, address } = await signUp();
    expect((await owner.call('POST', '/auth/logout')).status).toBe(200);
    // An attacker guesses from ten addresses until the account is locked for everyone else.
    for (let i = 0; i < 10; i++) {
      const guess = await new Client(test.base).call('POST', '/auth/login', {
        emailAddress: address,
        password: `guess-${i}-x`,
      });
      expect(guess.status).toBe(401);
    }
    const stranger = await new Client(test.base).call('POST', '/auth/login', {
      emailAddress: address,
      password: PASSWORD,
    });
    expect(stranger.status).toBe(429);

    // The owner's own browser still gets in with the right password.
    const back = await owner.call('POST', '/auth/login', { emailAddress: address, password: PASSWORD });
    expect(back.status).toBe(200);
    // Guesses from the known device are counted too, on their own.
    expect((await owner.call('POST', '/auth/logout')).status).toBe(200);
    for (let i = 0; i < 10; i++)
      await owner.call('POST', '/auth/login', { emailAddress: address, password: `guess-${i}-y` });
    expect((await owner.call('POST', '/auth/login', { emailAddress: address, password: PASSWORD })).status).toBe(429);
    // A device cookie of another account is no key to this one.
    const other = await signUp();
    const borrowed = new Client(test.base);
    borrowed.cookies.set('device', other.client.cookies.get('device')!);
    expect((await borrowed.call('POST', '/auth/login', { emailAddress: address, password: PASSWORD })).status).toBe(
      429,
    );
  });

  it('Targeted lockout: device cookies collected with an old password stop counting on their own once it changes', async () => {
    const { client: owner, address } = await signUp();
    // Someone who knew the password signed in from a fresh browser and kept its device cookie.
    const thief = new Client(test.base);
    expect((await thief.call('POST', '/auth/login', { emailAddress: address, password: PASSWORD })).status).toBe(200);
    const collected = thief.cookies.get('device')!;
    const changed = await owner.call('POST', '/user/edit-account', {
      currentPassword: PASSWORD,
      newPassword: 'new-harbour-lantern-43',
    });
    expect(changed.status).toBe(200);
    // The account is locked for everyone who is not a known device...
    for (let i = 0; i < 10; i++)
      await new Client(test.base).call('POST', '/auth/login', { emailAddress: address, password: `guess-${i}-z` });
    // ...and the collected cookie is no longer one: its guesses meet the account's lock.
    const guesser = new Client(test.base);
    guesser.cookies.set('device', collected);
    const guess = await guesser.call('POST', '/auth/login', { emailAddress: address, password: 'guess-x-z' });
    expect(guess.status).toBe(429);
  });

  it('remembers a few devices per account, the least recently used going first', async () => {
    const { address, user } = await signUp();
    for (let i = 0; i < 7; i++)
      expect(
        (await new Client(test.base).call('POST', '/auth/login', { emailAddress: address, password: PASSWORD })).status,
      ).toBe(200);
    const kept = await test.db
      .selectFrom('auth_known_devices')
      .select('token_hash')
      .where('user_id', '=', user._id)
      .execute();
    expect(kept).toHaveLength(5);
  });

  it('counts parallel guesses before checking any of them: at most 10 of 40 at once are even tried', async () => {
    const { address } = await signUp();
    const guesses = await Promise.all(
      Array.from({ length: 40 }, (_, i) =>
        new Client(test.base).call(
          'POST',
          '/auth/login',
          { emailAddress: address, password: `guess-${i}-lantern` },
          { 'X-Forwarded-For': `203.0.113.${100 + i}` },
        ),
      ),
    );
    const statuses = guesses.map((g) => g.status);
    expect(statuses.filter((s) => s === 401).length).toBeLessThanOrEqual(10);
    expect(statuses.filter((s) => s === 429).length).toBeGreaterThanOrEqual(30);
    expect(statuses.every((s) => s === 401 || s === 429)).toBe(true);
  });

  it('answers a burst of logins beyond what it hashes at once with 503 and Retry-After, never a 500 or a swamped machine', async () => {
    const burst = await Promise.all(
      Array.from({ length: 150 }, (_, i) =>
        new Client(test.base).call(
          'POST',
          '/auth/login',
          { emailAddress: email(), password: 'burst-harbour-lantern' },
          { 'X-Forwarded-For': `198.18.${Math.floor(i / 200)}.${(i % 200) + 1}` },
        ),
      ),
    );
    const statuses = burst.map((r) => r.status);
    expect(statuses.every((s) => s === 401 || s === 503)).toBe(true);
    const busy = burst.filter((r) => r.status === 503);
    expect(busy.length).toBeGreaterThan(0);
    expect(Number(busy[0]!.headers.get('retry-after'))).toBeGreaterThan(0);
  });

  it('starts the failure count again after a successful login', async () => {
    const { address } = await signUp();
    // From ever-new addresses, so only the per-account count can refuse.
    const wrong = (from: number) =>
      new Client(test.base).call(
        'POST',
        '/auth/login',
        { emailAddress: address, password: 'nope-nope-nope' },
        { 'X-Forwarded-For': `203.0.113.${from}` },
      );
    for (let i = 0; i < 9; i++) expect((await wrong(i)).status).toBe(401);
    expect(
      (await new Client(test.base).call('POST', '/auth/login', { emailAddress: address, password: PASSWORD })).status,
    ).toBe(200);
    for (let i = 0; i < 9; i++) expect((await wrong(20 + i)).status).toBe(401);
  });

  it('stops one address guessing across accounts after 10 failures', async () => {
    const guesser = new Client(test.base);
    for (let i = 0; i < 10; i++)
      expect(
        (await guesser.call('POST', '/auth/login', { emailAddress: email(), password: 'nope-nope-nope' })).status,
      ).toBe(401);
    expect(
      (await guesser.call('POST', '/auth/login', { emailAddress: email(), password: 'nope-nope-nope' })).status,
    ).toBe(429);
  });

  it('stops one address signing up more than 5 accounts an hour, with 429 and Retry-After', async () => {
    const signup = (headers: Record<string, string> = { 'X-Forwarded-For': '203.0.113.77' }) =>
      new Client(test.base).call('POST', '/auth/signup', { emailAddress: email(), password: PASSWORD }, headers);
    for (let i = 0; i < 5; i++) expect((await signup()).status).toBe(201);
    const refused = await signup();
    expect(refused.status).toBe(429);
    expect(refused.setCookies).toEqual([]);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    // Someone at another address is not held back.
    expect((await signup({})).status).toBe(201);
  });

  it("lists the user's sessions with the current one marked, ends another, and will not touch someone else's", async () => {
    const { client: laptop, address } = await signUp();
    const phone = new Client(test.base);
    await phone.call('POST', '/auth/login', { emailAddress: address, password: PASSWORD });
    const listed = await laptop.call('GET', '/sessions');
    expect(listed.body).toHaveLength(2);
    expect(listed.body.filter((s: { isCurrent: boolean }) => s.isCurrent)).toHaveLength(1);
    const phoneSession = listed.body.find((s: { isCurrent: boolean }) => !s.isCurrent)._id;

    const { client: other } = await signUp();
    expect((await other.call('POST', '/sessions/delete', { sessionId: phoneSession })).status).toBe(404);
    expect((await phone.call('GET', '/auth/user-info')).status).toBe(200);

    const after = await laptop.call('POST', '/sessions/delete', { sessionId: phoneSession });
    expect(after.status).toBe(200);
    expect(after.body).toHaveLength(1);
    expect((await phone.call('GET', '/auth/user-info')).status).toBe(401);
  });

  it('ends every other session at once and keeps the one asking', async () => {
    const { client: laptop, address } = await signUp();
    const devices = [new Client(test.base), new Client(test.base)];
    for (const device of devices)
      await device.call('POST', '/auth/login', { emailAddress: address, password: PASSWORD });
    expect((await new Client(test.base).call('POST', '/sessions/delete-others')).status).toBe(401);

    const after = await laptop.call('POST', '/sessions/delete-others');
    expect(after.status).toBe(200);
    expect(after.body).toEqual([expect.objectContaining({ isCurrent: true })]);
    for (const device of devices) expect((await device.call('GET', '/auth/user-info')).status).toBe(401);
    expect((await laptop.call('GET', '/auth/user-info')).status).toBe(200);
  });

  it('turns two-factor on and off for the signed-in user only', async () => {
    const { client } = await signUp();
    expect((await new Client(test.base).call('POST', '/user/enable-twofac')).status).toBe(401);
    expect((await client.call('POST', '/user/enable-twofac')).body.twoFactorEnabled).toBe(true);
    const off = await client.call('POST', '/user/disable-twofac', { currentPassword: PASSWORD });
    expect(off.body.twoFactorEnabled).toBe(false);
  });

  it('2FA code brute force: turning two-factor off needs the current password, not only a session', async () => {
    const { client } = await signUp();
    expect((await client.call('POST', '/user/enable-twofac')).body.twoFactorEnabled).toBe(true);
    // Someone holding only the session (a borrowed laptop, a stolen cookie) tries to switch the second factor off.
    const bare = await client.call('POST', '/user/disable-twofac');
    expect(bare.status).toBe(400);
    expect(bare.body.message).toContain('currentPassword is needed to turn two-factor off');
    const wrong = await client.call('POST', '/user/disable-twofac', { currentPassword: 'not-the-password-1' });
    expect(wrong.status).toBe(400);
    expect(wrong.body.message).toEqual(['currentPassword: the current password is not right']);
    expect((await client.call('GET', '/auth/user-info')).body.twoFactorEnabled).toBe(true);

    const right = await client.call('POST', '/user/disable-twofac', { currentPassword: PASSWORD });
    expect(right.status).toBe(200);
    expect((await client.call('GET', '/auth/user-info')).body.twoFactorEnabled).toBe(false);
  });
});

describe('identity while the mail relay is down', () => {
  let test: TestApp;

  beforeAll(async () => {
    // Nothing listens on a port just handed out and released: every mail fails to connect.
    test = await startTestApp({ SMTP_URL: `smtp://127.0.0.1:${await freePort()}` });
  });
  afterAll(async () => {
    await test?.close();
  });

  it('still signs up (the link can be sent again), but says 503 when the sign-in code cannot go', async () => {
    const client = new Client(test.base);
    const address = `person-${randomUUID().slice(0, 8)}@example.com`;
    const signup = await client.call('POST', '/auth/signup', { emailAddress: address, password: PASSWORD });
    expect(signup.status).toBe(201);
    expect((await client.call('POST', '/user/enable-twofac')).body.twoFactorEnabled).toBe(true);

    const login = await new Client(test.base).call('POST', '/auth/login', {
      emailAddress: address,
      password: PASSWORD,
    });
    expect(login.status).toBe(503);
    expect(login.body.message).toBe('We could not send the e-mail; please try again in a moment');
    expect(login.setCookies).toEqual([]);
  });
});
