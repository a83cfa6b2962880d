import { execFile } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildBackend } from '../test-support/backend-process.js';
import { startTestApp, type TestApp } from '../test-support/test-app.js';
import { ensureAdmin, signInWithCode } from '../test-support/admins.js';
import { ApiClient } from '../test-support/api-client.js';
import { devOutbox } from '../test-support/video-users.js';
import { executeDecider } from '../platform/cqrs/execute-decider.js';
import { account } from './domain/account.decider.js';
import { accountStream } from './domain/account.events.js';

const repoRoot = fileURLToPath(new URL('../../../', import.meta.url));

describe('admin accounts', () => {
  let test: TestApp;
  const key = randomBytes(32).toString('base64');

  beforeAll(async () => {
    buildBackend();
    test = await startTestApp({ PERSONAL_DATA_KEY: key });
  }, 120_000);
  afterAll(async () => test?.close());

  const login = (emailAddress: string, password: string) =>
    fetch(`${test.base}/api/auth/login`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ emailAddress, password }),
    });

  it('ADMIN_EMAIL + ADMIN_PASSWORD at start make one admin account with two-factor login on, however often the app starts', async () => {
    const first = await ensureAdmin(test.app, 'Root@Example.com', 'violet-harbour-lantern-42');
    const again = await ensureAdmin(test.app, 'root@example.com', 'violet-harbour-lantern-42');
    expect(again).toBe(first);
    const log = await test.core.store.readAll({ maxCount: 10_000 });
    const grants = log.filter((e) => e.type === 'RoleGranted');
    expect(grants).toHaveLength(1);
    expect(grants[0]!.data).toMatchObject({ userId: first, role: 'admin', grantedBy: 'system' });
    expect(grants[0]!.metadata.actor).toBe('system');
    expect(log.filter((e) => e.type === 'TwoFactorEnabled')).toHaveLength(1);
    // The password alone is not enough: the admin's sign-in asks for the mailed code.
    const res = await login('root@example.com', 'violet-harbour-lantern-42');
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ twoFactorRequired: true, challengeId: expect.any(String) });
    const admin = new ApiClient(test.base);
    // Mailed to the address as the account holds it (the domain folded, the rest as first typed).
    await signInWithCode(admin, 'Root@example.com', 'violet-harbour-lantern-42', devOutbox(test.base));
    await expect
      .poll(async () => (await admin.call('GET', '/auth/user-info')).body)
      .toMatchObject({ isAdmin: true, role: 'admin', twoFactorEnabled: true });
  });

  it('refuses a weak ADMIN_PASSWORD for a new admin', async () => {
    await expect(ensureAdmin(test.app, 'boss@example.com', 'password')).rejects.toThrow(/ADMIN_PASSWORD/);
  });

  /** Someone signs up with the address first, without owning the mailbox (the link is never followed). */
  async function squat(emailAddress: string): Promise<string> {
    const res = await fetch(`${test.base}/api/auth/signup`, {
      method: 'POST',
      headers: {
        'Content-Type': 'application/json',
        'X-Forwarded-For': `198.51.100.${Math.floor(Math.random() * 200) + 1}`,
      },
      body: JSON.stringify({ emailAddress, password: 'squatter-harbour-lantern-9' }),
    });
    expect(res.status).toBe(201);
    return ((await res.json()) as { _id: string })._id;
  }

  const grantsTo = async (userId: string) =>
    (await test.core.store.readAll({ maxCount: 10_000 })).filter(
      (e) => e.type === 'RoleGranted' && (e.data as { userId: string }).userId === userId,
    );

  it('refuses to make an admin of an account that took ADMIN_EMAIL without confirming it (admin squatting)', async () => {
    const squatter = await squat('ops@example.com');
    await expect(ensureAdmin(test.app, 'ops@example.com', 'violet-harbour-lantern-42')).rejects.toThrow(
      /^ADMIN_EMAIL: the account holding this address never confirmed it/,
    );
    expect(await grantsTo(squatter)).toEqual([]);
  });

  it('refuses an ADMIN_PASSWORD that is not the password of the account holding ADMIN_EMAIL', async () => {
    const admin = await ensureAdmin(test.app, 'chief@example.com', 'violet-harbour-lantern-42');
    await expect(ensureAdmin(test.app, 'chief@example.com', 'another-harbour-lantern-43')).rejects.toThrow(
      /^ADMIN_PASSWORD: it is not the password/,
    );
    expect(await grantsTo(admin)).toHaveLength(1);
  });

  it('`npm run admin:grant -- <email> [role]` gives an existing user a role, recorded as done by the cli', async () => {
    const signup = await fetch(`${test.base}/api/auth/signup`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'X-Forwarded-For': '198.51.100.77' },
      body: JSON.stringify({ emailAddress: 'moderator@example.com', password: 'violet-harbour-lantern-42' }),
    });
    expect(signup.status).toBe(201);
    const moderator = ((await signup.json()) as { _id: string })._id;
    const env = {
      PATH: process.env.PATH ?? '',
      DATABASE_URL: test.database.url,
      PERSONAL_DATA_KEY: key,
      LOG_LEVEL: 'warn',
    };
    const run = promisify(execFile);
    const grant = () =>
      run(process.execPath, ['backend/dist/cli/grant-admin.js', 'moderator@example.com'], { cwd: repoRoot, env });
    // Not before the address is confirmed: holding it is not owning it.
    await expect(grant()).rejects.toMatchObject({
      stderr: 'admin:grant failed: the account with the e-mail address moderator@example.com never confirmed it\n',
    });
    const meta = { commandId: randomUUID(), correlationId: randomUUID(), actor: moderator, now: new Date() };
    await executeDecider(test.core, accountStream(moderator), account, { type: 'VerifyEmail' }, meta);
    const { stdout } = await grant();
    expect(stdout).toBe('moderator@example.com is now an admin\n');
    const byCli = async () =>
      (await test.core.store.readAll({ maxCount: 10_000 }))
        .filter((e) => e.type.startsWith('Role') && e.metadata.actor === 'cli')
        .map((e) => ({ type: e.type, data: e.data }));
    expect(await byCli()).toEqual([
      {
        type: 'RoleGranted',
        data: expect.objectContaining({ userId: moderator, role: 'admin', grantedBy: 'cli' }),
      },
    ]);
    const as = (role: string) =>
      run(process.execPath, ['backend/dist/cli/grant-admin.js', 'moderator@example.com', role, 'runs', 'the', 'team'], {
        cwd: repoRoot,
        env,
      });
    expect((await as('moderator')).stdout).toBe('moderator@example.com is now a moderator\n');
    expect((await as('moderator')).stdout).toBe('moderator@example.com was already a moderator\n');
    expect((await as('user')).stdout).toBe('moderator@example.com is now a user without a role\n');
    expect((await byCli()).map((e) => [e.type, (e.data as { role: string }).role])).toEqual([
      ['RoleGranted', 'admin'],
      ['RoleGranted', 'moderator'],
      ['RoleRevoked', 'moderator'],
    ]);
    await expect(as('owner')).rejects.toMatchObject({ stderr: expect.stringMatching(/^admin:grant failed: usage/) });

    await expect(
      run(process.execPath, ['backend/dist/cli/grant-admin.js', 'nobody@example.com'], { cwd: repoRoot, env }),
    ).rejects.toMatchObject({
      stderr: 'admin:grant failed: no account with the e-mail address nobody@example.com\n',
    });
  });
});
