import { expect } from 'vitest';
import type { Page } from 'playwright-core';
import type { AppServer } from './app-server.js';

/**
 * An admin of `server` (its ADMIN_EMAIL account) signed in over the API: a fetch of /api paths with its cookies. The
 * admin has two-factor login on (the dashboard asks it of staff), so the sign-in takes the code mailed to the address,
 * read from the app's dev outbox (the app runs without SMTP_URL).
 */
export async function adminApi(server: AppServer, account: { emailAddress: string; password: string }) {
  const login = await fetch(`${server.url}/api/auth/login`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(account),
  });
  expect(login.status).toBe(200);
  const { challengeId } = (await login.json()) as { challengeId?: string };
  expect(challengeId, 'the admin sign-in asks for the mailed code').toEqual(expect.any(String));
  // The code is mailed before the login answers; the outbox lists the newest first.
  const outbox = await fetch(`${server.url}/api/dev/outbox`);
  expect(outbox.status).toBe(200);
  const mails = (await outbox.json()) as { to: string; subject: string; text: string }[];
  const mail = mails.find((m) => m.to === account.emailAddress && /sign-in code/.test(m.subject));
  const code = mail && /\b(\d{6})\b/.exec(mail.text)?.[1];
  expect(code, `a sign-in code mailed to ${account.emailAddress}`).toEqual(expect.any(String));
  const verified = await fetch(`${server.url}/api/auth/login/verify`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ challengeId, code }),
  });
  expect(verified.status).toBe(200);
  const cookie = verified.headers
    .getSetCookie()
    .map((line) => line.split(';')[0])
    .join('; ');
  return (method: string, path: string, body?: unknown) =>
    fetch(`${server.url}/api${path}`, {
      method,
      headers: { Cookie: cookie, ...(body ? { 'Content-Type': 'application/json' } : {}) },
      body: body ? JSON.stringify(body) : undefined,
    });
}

/**
 * The ADMIN_EMAIL account is made without a name; its owner finishes signing up (spec 4 "Signup gating") once, as
 * Root Admin.
 */
export async function finishAdminSignup(server: AppServer, account: { emailAddress: string; password: string }) {
  const api = await adminApi(server, account);
  const complete = await api('POST', '/auth/signup/complete', {
    firstName: 'Root',
    lastName: 'Admin',
    username: 'rootadmin',
    gender: 'female',
    birthDate: '1985-03-14',
  });
  expect(complete.status).toBe(200);
}

/**
 * The admin signs in on `page` as a person does: /dashboard sends them to login, then the password, then the code
 * mailed to them (read from the dev outbox); returns on the dashboard's Overview.
 */
export async function signInAdminInBrowser(
  page: Page,
  server: AppServer,
  account: { emailAddress: string; password: string },
): Promise<void> {
  await page.goto(`${server.url}/dashboard`);
  await page.waitForURL(/\/auth\/login/);
  await page.getByLabel('E-mail address').fill(account.emailAddress);
  await page.getByLabel('Password', { exact: true }).fill(account.password);
  const asked = Date.now();
  await page.getByRole('button', { name: 'Log in' }).click();
  await page.getByText('Check your e-mail').waitFor();
  let code: string | undefined;
  await expect
    .poll(
      async () => {
        const mails = (await (await fetch(`${server.url}/api/dev/outbox`)).json()) as {
          to: string;
          subject: string;
          text: string;
          sentAt?: string;
        }[];
        const mail = mails.find(
          (m) =>
            m.to === account.emailAddress &&
            /sign-in code/.test(m.subject) &&
            (!m.sentAt || Date.parse(m.sentAt) >= asked - 1000),
        );
        code = mail && /\b(\d{6})\b/.exec(mail.text)?.[1];
        return code;
      },
      { timeout: 10_000 },
    )
    .toEqual(expect.any(String));
  await page.getByLabel('Login code').fill(code!);
  await page.getByRole('button', { name: 'Verify and log in' }).click();
  await page.getByRole('heading', { level: 1, name: 'Overview' }).waitFor();
}
