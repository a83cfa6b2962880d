import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildBackend } from '../test-support/backend-process.js';
import { startTestApp, type TestApp } from '../test-support/test-app.js';
import { ensureAdmin } from '../test-support/admins.js';

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

  it('ADMIN_EMAIL + ADMIN_PASSWORD at start make one admin account, however often the app starts', async () => {
    const first = await ensureAdmin(test.app, 'Root@Example.com', 'violet-harbour-lantern-42');
    const again = await ensureAdmin(test.app, 'root@example.com', 'violet-harbour-lantern-42');
    expect(again).toBe(first);
    const grants = (await test.core.store.readAll({ maxCount: 10_000 })).filter((e) => e.type === 'AdminGranted');
    expect(grants).toHaveLength(1);
    expect(grants[0]!.metadata.actor).toBe('system');
    const res = await login('root@example.com', 'violet-harbour-lantern-42');
    expect(res.status).toBe(200);
    await expect
      .poll(async () => (await (await login('root@example.com', 'violet-harbour-lantern-42')).json()).isAdmin)
      .toBe(true);
  });

  it('refuses a weak ADMIN_PASSWORD for a new admin', async () => {
    await expect(ensureAdmin(test.app, 'boss@example.com', 'password')).rejects.toThrow(/ADMIN_PASSWORD/);
  });

  it('`npm run admin:grant -- <email>` makes an existing user an admin, recorded as done by the cli', async () => {
    const signup = await fetch(`${test.base}/api/auth/signup`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'X-Forwarded-For': '198.51.100.77' },
      body: JSON.stringify({ emailAddress: 'moderator@example.com', password: 'violet-harbour-lantern-42' }),
    });
    expect(signup.status).toBe(201);
    const env = {
      PATH: process.env.PATH ?? '',
      DATABASE_URL: test.database.url,
      PERSONAL_DATA_KEY: key,
      LOG_LEVEL: 'warn',
    };
    const run = promisify(execFile);
    const { stdout } = await run(process.execPath, ['backend/dist/cli/grant-admin.js', 'moderator@example.com'], {
      cwd: repoRoot,
      env,
    });
    expect(stdout).toBe('moderator@example.com is now an admin\n');
    const grant = (await test.core.store.readAll({ maxCount: 10_000 })).find(
      (e) => e.type === 'AdminGranted' && e.metadata.actor === 'cli',
    );
    expect(grant).toBeDefined();

    await expect(
      run(process.execPath, ['backend/dist/cli/grant-admin.js', 'nobody@example.com'], { cwd: repoRoot, env }),
    ).rejects.toMatchObject({
      stderr: 'admin:grant failed: no account with the e-mail address nobody@example.com\n',
    });
  });
});
