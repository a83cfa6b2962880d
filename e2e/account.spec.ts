import { randomUUID } from 'node:crypto';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type SmtpSink, startSmtpSink } from '../backend/src/test-support/smtp-sink.js';
import { signedInAccount, signIn, type TestAccount } from './support/accounts.js';
import { type AppServer, startAppServer } from './support/app-server.js';
import { screenshot } from './support/artifacts.js';
import { browserUnavailable, launchChromium, VIEWPORTS } from './support/browser.js';

/** The account settings dialog (spec 2): e-mail change by link, devices, two-factor, deletion. */
describe.skipIf(browserUnavailable())('account settings in a browser', () => {
  let server: AppServer;
  let sink: SmtpSink;
  let browser: Browser;
  const contexts: BrowserContext[] = [];

  beforeAll(async () => {
    sink = await startSmtpSink();
    [server, browser] = await Promise.all([startAppServer({ SMTP_URL: sink.url }), launchChromium()]);
  });
  afterAll(async () => {
    await Promise.all(contexts.map((c) => c.close()));
    await browser?.close();
    await server?.stop();
    await sink?.stop();
  });

  async function device(viewport: { width: number; height: number } = VIEWPORTS.desktop): Promise<BrowserContext> {
    const context = await browser.newContext({ viewport });
    contexts.push(context);
    return context;
  }

  async function openSettings(page: Page, tab: 'general' | 'profile' | 'security'): Promise<void> {
    await page.goto(`${server.url}/settings?tab=${tab}`);
    await page.getByRole('dialog').waitFor();
  }

  const mailTo = (address: string, subject: RegExp) =>
    sink.waitFor((m) => m.to.includes(address) && subject.test(m.subject));

  it('reaches the dialog from the user menu and shows the three tabs on a phone', async () => {
    const phone = await device(VIEWPORTS.phone);
    const account = await signedInAccount(server.url, phone);
    const page = await phone.newPage();
    await page.goto(`${server.url}/`);
    await page.getByRole('button', { name: 'Menu' }).click();
    await page.getByRole('link', { name: 'Settings' }).click();
    await page.getByRole('button', { name: /Account settings/ }).click();
    await page.getByRole('heading', { name: 'Account Settings' }).waitFor();
    // spec 2: the e-mail is shown masked.
    const [local, domain] = account.emailAddress.split('@');
    await page.getByText(`${local![0]}`, { exact: false }).first().waitFor();
    expect(await page.getByRole('dialog').textContent()).not.toContain(account.emailAddress);
    expect(await page.getByRole('dialog').textContent()).toContain(`@${domain}`);
    await screenshot(page, 'account-general-phone');
    await page.getByRole('tab', { name: 'Security' }).click();
    await page.getByRole('heading', { name: 'Devices and Activities' }).waitFor();
    await page.getByText('This device').waitFor();
    await screenshot(page, 'account-security-phone');
    await page.keyboard.press('Escape');
    await page.getByRole('dialog').waitFor({ state: 'detached' });
    expect(new URL(page.url()).search).toBe('');
  });

  it('keeps the whole dialog reachable on a small phone with many devices, and "Hide my IP address" sticks', async () => {
    const small = await device({ width: 375, height: 667 });
    const account = await signedInAccount(server.url, small);
    // Each signed-in device adds a row to the Security tab: taller than the screen.
    for (let i = 0; i < 4; i++) await signIn(server.url, await device(), account);
    const page = await small.newPage();
    await openSettings(page, 'security');
    await page.getByText('This device').waitFor();
    const dialog = await page.getByRole('dialog').boundingBox();
    expect(dialog!.y).toBeGreaterThanOrEqual(0);
    const hideIp = page.getByRole('switch', { name: 'Hide my IP address' });
    await hideIp.scrollIntoViewIfNeeded();
    await hideIp.click();
    await expect.poll(() => hideIp.getAttribute('aria-checked')).toBe('true');
    await screenshot(page, 'account-security-hide-ip-small-phone');
    await page.reload();
    await expect
      .poll(() => page.getByRole('switch', { name: 'Hide my IP address' }).getAttribute('aria-checked'))
      .toBe('true');
    // The close button and the tabs stay within reach.
    await page.getByRole('tab', { name: 'General' }).click();
    await page.getByRole('button', { name: 'Close settings' }).click();
    await page.getByRole('dialog').waitFor({ state: 'detached' });
  });

  it('changes the e-mail only once the new address confirms it, and tells the old one', async () => {
    const laptop = await device();
    const account = await signedInAccount(server.url, laptop);
    const page = await laptop.newPage();
    const newAddress = `moved-${randomUUID().slice(0, 8)}@example.com`;

    await openSettings(page, 'general');
    await page.getByLabel('New e-mail address').fill('not-an-address');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByText('Invalid email format').waitFor();

    await page.getByLabel('New e-mail address').fill(newAddress);
    await page.getByLabel('Current password').fill(account.password);
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByRole('button', { name: 'Changes Saved Successfully' }).waitFor();
    await page.getByText(/We sent a confirmation link to/).waitFor();
    await screenshot(page, 'account-email-pending-desktop');

    const confirmation = await mailTo(newAddress, /Confirm your new e-mail address/);
    const link = /(http\S+verify-email\?token=[\w-]+)/.exec(confirmation.text)![1]!;
    await page.goto(link);
    await page.getByText('E-mail verified').waitFor();
    await mailTo(account.emailAddress, /changed/i);

    // The new address signs in; the old one no longer does.
    const login = (emailAddress: string) =>
      fetch(`${server.url}/api/auth/login`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', 'X-Forwarded-For': '198.51.100.77' },
        body: JSON.stringify({ emailAddress, password: account.password }),
      });
    expect((await login(newAddress)).status).toBe(200);
    expect((await login(account.emailAddress)).status).toBe(401);
    await openSettings(page, 'general');
    expect(await page.getByRole('dialog').textContent()).toContain(`${newAddress[0]}`);
    expect(await page.getByRole('dialog').textContent()).not.toContain(account.emailAddress.split('@')[0]);
  });

  it('ends another session from the Security tab, which goes to login at once, and all others at once', async () => {
    const laptop = await device();
    const account: TestAccount = await signedInAccount(server.url, laptop);
    const phone = await device(VIEWPORTS.phone);
    await signIn(server.url, phone, account);
    const phonePage = await phone.newPage();
    await phonePage.goto(`${server.url}/settings`);
    await phonePage.getByRole('button', { name: /Account settings/ }).waitFor();

    const page = await laptop.newPage();
    await openSettings(page, 'security');
    const sessions = page.getByRole('listitem').filter({ has: page.getByRole('button', { name: 'End session' }) });
    await sessions.first().waitFor();
    expect(await sessions.count()).toBe(1);
    await sessions.first().getByText('Chrome 156 on Linux').waitFor();
    await screenshot(page, 'account-sessions-desktop');
    await sessions.first().getByRole('button', { name: 'End session' }).click();
    await page.getByRole('button', { name: 'End session' }).waitFor({ state: 'detached' });

    // The phone is told at once, with no request of its own (its socket hears it): the login page, saying why, and
    // back to where it was after logging in.
    await phonePage.waitForURL(/\/auth\/login\?redirect=%2Fsettings$/, { timeout: 5_000 });
    await phonePage.getByText('Session Expired, Please Log In.').waitFor();
    await screenshot(phonePage, 'account-session-ended-phone');
    expect((await phone.request.get(`${server.url}/api/auth/user-info`)).status()).toBe(401);

    // Two more devices, ended together.
    const others = [await device(), await device()];
    for (const other of others) await signIn(server.url, other, account);
    await page.reload();
    await page.getByRole('button', { name: 'End session' }).first().waitFor();
    expect(await page.getByRole('button', { name: 'End session' }).count()).toBe(2);
    await page.getByRole('button', { name: 'End all other sessions' }).click();
    await page.getByRole('button', { name: 'End session' }).first().waitFor({ state: 'detached' });
    for (const other of others) {
      const answer = await other.request.get(`${server.url}/api/auth/user-info`);
      expect(answer.status()).toBe(401);
    }
  });

  it('turns two-factor on with the switch (the page reloads) and asks for a code at the next sign-in', async () => {
    const laptop = await device();
    const account = await signedInAccount(server.url, laptop);
    const page = await laptop.newPage();
    await openSettings(page, 'security');
    const toggle = page.getByRole('switch', { name: 'Two-factor authentication' });
    expect(await toggle.getAttribute('aria-checked')).toBe('false');
    await Promise.all([page.waitForEvent('load'), toggle.click()]);
    await page.getByRole('switch', { name: 'Two-factor authentication' }).waitFor();
    expect(await page.getByRole('switch', { name: 'Two-factor authentication' }).getAttribute('aria-checked')).toBe(
      'true',
    );
    const login = await fetch(`${server.url}/api/auth/login`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'X-Forwarded-For': '198.51.100.78' },
      body: JSON.stringify({ emailAddress: account.emailAddress, password: account.password }),
    });
    expect(await login.json()).toMatchObject({ twoFactorRequired: true });

    // Turning it off asks the current password first; a wrong one changes nothing.
    await page.getByRole('switch', { name: 'Two-factor authentication' }).click();
    const confirm = page.getByRole('dialog', { name: 'Turn off two-factor authentication?' });
    await confirm.getByLabel('Current password').fill('not-my-password-1');
    await confirm.getByRole('button', { name: 'Turn off' }).click();
    await confirm.getByText(/current password is not right/i).waitFor();
    await screenshot(page, 'account-two-factor-off-desktop');
    await confirm.getByLabel('Current password').fill(account.password);
    await Promise.all([page.waitForEvent('load'), confirm.getByRole('button', { name: 'Turn off' }).click()]);
    await page.getByRole('switch', { name: 'Two-factor authentication', checked: false }).waitFor();
  });

  it('deletes the account with the current password, logs out, and the account can no longer log in', async () => {
    const laptop = await device();
    const account = await signedInAccount(server.url, laptop);
    const page = await laptop.newPage();
    await openSettings(page, 'general');
    await page.getByRole('button', { name: 'Delete account' }).click();
    const confirm = page.getByRole('alertdialog').or(page.getByRole('dialog').last());
    await confirm.getByLabel('Current password').fill('not-my-password-1');
    await confirm.getByRole('button', { name: 'Delete my account' }).click();
    await confirm
      .getByText(/password/i)
      .first()
      .waitFor();
    expect(page.url()).toContain('/settings');
    await screenshot(page, 'account-delete-desktop');

    await confirm.getByLabel('Current password').fill(account.password);
    await confirm.getByRole('button', { name: 'Delete my account' }).click();
    await page.getByText('Account deleted successfully').waitFor();
    await page.waitForURL(/\/auth\/login/);

    await page.getByLabel('E-mail address').fill(account.emailAddress);
    await page.getByLabel('Password', { exact: true }).fill(account.password);
    await page.getByRole('button', { name: 'Log in' }).click();
    await page
      .getByRole('alert')
      .filter({ hasText: /password|e-mail/i })
      .first()
      .waitFor();
    expect(page.url()).toMatch(/\/auth\/login/);
  });
});
