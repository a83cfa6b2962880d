import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { type SmtpSink, startSmtpSink } from '../backend/src/test-support/smtp-sink.js';
import { type AppServer, startAppServer } from './support/app-server.js';
import { browserUnavailable, launchChromium, VIEWPORTS } from './support/browser.js';

const PASSWORD = 'violet-harbour-lantern-42';
const NEW_PASSWORD = 'amber-harbour-lantern-43';

/** Identity's walk-through: every e-mail is read from a real SMTP sink, every step is what a person does. */
describe.skipIf(browserUnavailable())('identity in a browser', () => {
  let server: AppServer;
  let sink: SmtpSink;
  let browser: Browser;
  const email = `walker-${Date.now()}@example.com`;

  beforeAll(async () => {
    sink = await startSmtpSink();
    [server, browser] = await Promise.all([startAppServer({ SMTP_URL: sink.url }), launchChromium()]);
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    await sink?.stop();
  });

  const mailTo = (pattern: RegExp, after = 0) =>
    sink.waitFor((m) => m.to.includes(email) && pattern.test(m.subject) && sink.messages.indexOf(m) >= after, 10_000);

  async function logIn(page: Page, password: string) {
    await page.getByLabel('E-mail address').fill(email);
    await page.getByLabel('Password', { exact: true }).fill(password);
    await page.getByRole('button', { name: 'Log in' }).click();
  }

  it('signs up, verifies the e-mail, continues sign-up, logs out, logs in with the e-mailed code, and a reset ends the old session', async () => {
    const laptop = await browser.newContext({ viewport: VIEWPORTS.desktop });
    const page = await laptop.newPage();

    // A guarded page, signed out: login, with the way back remembered.
    await page.goto(`${server.url}/video-match`);
    await page.waitForURL(/\/auth\/login\?redirect=%2Fvideo-match$/);
    await page.getByText('Unauthorized, Please Log In.').waitFor();

    await page.goto(`${server.url}/auth/signup`);
    await page.getByLabel('E-mail address').fill(email);
    await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
    await page.getByLabel('Confirm password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Create account' }).click();
    await page.waitForURL(/\/auth\/signup\/cs$/);

    const verification = await mailTo(/Confirm your e-mail/);
    const link = /(http\S+verify-email\?token=[\w-]+)/.exec(verification.text)![1]!;
    await page.goto(link);
    await page.getByText('E-mail verified').waitFor();

    await page.goto(`${server.url}/auth/signup/cs`);
    await page.getByLabel('First name').fill('Ada');
    await page.getByLabel('Last name').fill('Lovelace');
    await page.getByLabel('Username').fill(`ada_${Date.now() % 100000}`);
    await page.getByText('Female', { exact: true }).click();
    await page.getByLabel('Birth date').fill('1990-12-10');
    await page.getByRole('button', { name: 'Finish and start' }).click();
    await page.waitForURL(`${server.url}/`);
    await page.getByRole('heading', { name: 'Welcome, Ada' }).waitFor();

    // Two-factor on from the Security tab of the account settings (the page reloads after the switch).
    await page.goto(`${server.url}/settings?tab=security`);
    const twoFactor = page.getByRole('switch', { name: 'Two-factor authentication' });
    await Promise.all([page.waitForEvent('load'), twoFactor.click()]);
    await page.getByRole('switch', { name: 'Two-factor authentication', checked: true }).waitFor();
    await page.keyboard.press('Escape');

    await page.getByRole('button', { name: 'Account menu for Ada' }).click();
    await page.getByRole('menuitem', { name: 'Logout' }).click();
    await page.waitForURL(/\/auth\/login/);

    await page.goto(`${server.url}/video-match`);
    await page.waitForURL(/\/auth\/login\?redirect=%2Fvideo-match$/);
    const before = sink.messages.length;
    await logIn(page, PASSWORD);
    await page.getByText('Check your e-mail').waitFor();
    const code = /\b(\d{6})\b/.exec((await mailTo(/sign-in code/, before)).text)![1]!;
    await page.getByLabel('Login code').fill(code);
    await page.getByRole('button', { name: 'Verify and log in' }).click();
    await page.waitForURL(`${server.url}/video-match`);

    // On another device, a reset from the e-mailed link...
    const phone = await browser.newContext({ viewport: VIEWPORTS.phone });
    const other = await phone.newPage();
    await other.goto(`${server.url}/auth/password-reset`);
    const beforeReset = sink.messages.length;
    await other.getByLabel('E-mail address').fill(email);
    await other.getByRole('button', { name: 'Send reset link' }).click();
    const resetMail = await mailTo(/Reset your Serendip password/, beforeReset);
    await other.goto(/(http\S+\/reset-password\/[\w-]+)/.exec(resetMail.text)![1]!);
    await other.getByLabel('New password', { exact: true }).fill(NEW_PASSWORD);
    await other.getByLabel('Confirm new password').fill(NEW_PASSWORD);
    await other.getByRole('button', { name: 'Change password' }).click();
    await other.getByText('Password changed').waitFor();

    // ...ends the laptop's session: the laptop is told at once and asks to log in again, to come back here after.
    await page.waitForURL(/\/auth\/login\?redirect=%2Fvideo-match$/);
    await page.getByText('Session Expired, Please Log In.').waitFor();
    await laptop.close();
    await phone.close();
  }, 120_000);
});
