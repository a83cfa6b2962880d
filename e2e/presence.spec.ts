import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signedInAccount } from './support/accounts.js';
import { finishAdminSignup, signInAdminInBrowser } from './support/admin.js';
import { type AppServer, startAppServer } from './support/app-server.js';
import { screenshot } from './support/artifacts.js';
import { browserUnavailable, launchChromium, VIEWPORTS } from './support/browser.js';

const ADMIN = { emailAddress: 'presence-admin@example.com', password: 'violet-harbour-lantern-42' };

/**
 * Presence in a real browser (spec 4 "Presence", spec 7): an admin watches the overview's "Online now" list while two
 * users have the app open; one user's page is hidden (as when they switch tabs) and the list shows them away, then
 * online again when it shows; each user sees only how many people are online, on home. Photographed at 1440x900 and
 * 375x812.
 */
describe.skipIf(browserUnavailable())('presence in a browser', () => {
  let server: AppServer;
  let browser: Browser;
  const contexts: BrowserContext[] = [];

  beforeAll(async () => {
    [server, browser] = await Promise.all([
      startAppServer({ ADMIN_EMAIL: ADMIN.emailAddress, ADMIN_PASSWORD: ADMIN.password }),
      launchChromium(),
    ]);
    await finishAdminSignup(server, ADMIN);
  }, 120_000);
  afterAll(async () => {
    await Promise.all(contexts.map((c) => c.close()));
    await browser?.close();
    await server?.stop();
  });

  async function newContext(viewport: { width: number; height: number }) {
    const context = await browser.newContext({ viewport, reducedMotion: 'reduce' });
    contexts.push(context);
    await context.addInitScript(() => window.localStorage.setItem('serendip.cookieConsent', 'true'));
    return context;
  }

  /** The admin signs in as a person does: password, then the code mailed to them (the dev outbox shows it). */
  async function adminPage(viewport: { width: number; height: number }): Promise<Page> {
    const page = await (await newContext(viewport)).newPage();
    page.on('pageerror', (error) => console.error(`admin page error: ${error.message}`));
    await signInAdminInBrowser(page, server, ADMIN);
    return page;
  }

  /** A signed-in user on home. */
  async function userPage(viewport: { width: number; height: number }): Promise<{ page: Page; userId: string }> {
    const context = await newContext(viewport);
    await signedInAccount(server.url, context);
    const page = await context.newPage();
    page.on('pageerror', (error) => console.error(`user page error: ${error.message}`));
    await page.goto(`${server.url}/`);
    await page.getByRole('heading', { level: 1, name: /Welcome/ }).waitFor();
    const userId = await page.evaluate(
      async () => ((await (await fetch('/api/auth/user-info')).json()) as { _id: string })._id,
    );
    return { page, userId };
  }

  /** The page goes out of sight (another tab in front) or comes back, as the browser tells the page. */
  const setHidden = (page: Page, hidden: boolean) =>
    page.evaluate((hide) => {
      Object.defineProperty(document, 'hidden', { configurable: true, get: () => hide });
      Object.defineProperty(document, 'visibilityState', {
        configurable: true,
        get: () => (hide ? 'hidden' : 'visible'),
      });
      document.dispatchEvent(new Event('visibilitychange'));
    }, hidden);

  const statusOf = (admin: Page, userId: string) =>
    admin
      .getByTestId(`online-${userId}`)
      .getAttribute('data-status', { timeout: 1_000 })
      .catch(() => null);

  it("the admin's list shows a user away while their page is hidden, then back; users see how many are online", async () => {
    const admin = await adminPage(VIEWPORTS.desktop);
    const ada = await userPage(VIEWPORTS.phone);
    const bob = await userPage(VIEWPORTS.desktop);

    // Three people have the app open (the admin, Ada, Bob): each user reads the number on home.
    await expect
      .poll(() => ada.page.getByTestId('online-count').textContent(), { timeout: 15_000 })
      .toBe('3 people online');
    await expect
      .poll(() => bob.page.getByTestId('online-count').textContent(), { timeout: 15_000 })
      .toBe('3 people online');
    // The admin sees who: both users online, Ada on a phone, each linking to their page.
    await expect.poll(() => statusOf(admin, bob.userId), { timeout: 15_000 }).toBe('online');
    await expect.poll(() => statusOf(admin, ada.userId), { timeout: 15_000 }).toBe('online');
    const adaRow = admin.getByTestId(`online-${ada.userId}`);
    expect(await adaRow.textContent()).toBe('GracePhoneOnline');
    expect(await adaRow.getByRole('link', { name: 'Grace' }).getAttribute('href')).toBe(
      `/dashboard/user-management/${ada.userId}/view-details`,
    );
    // A user is never told who: no list reaches their page.
    expect(await ada.page.getByText('Online now').count()).toBe(0);
    await screenshot(ada.page, 'presence-home-count-phone');
    await screenshot(bob.page, 'presence-home-count-desktop');

    // Bob switches to another tab: away on the admin's list within seconds; still counted as online.
    await setHidden(bob.page, true);
    await expect.poll(() => statusOf(admin, bob.userId), { timeout: 8_000 }).toBe('away');
    expect(await statusOf(admin, ada.userId)).toBe('online');
    expect(await admin.getByTestId(`online-${bob.userId}`).textContent()).toBe('GraceDesktopAway');
    expect(await ada.page.getByTestId('online-count').textContent()).toBe('3 people online');
    await admin.getByRole('heading', { name: /^Online now/ }).scrollIntoViewIfNeeded();
    await screenshot(admin, 'presence-online-now-desktop');

    // He comes back: online again.
    await setHidden(bob.page, false);
    await expect.poll(() => statusOf(admin, bob.userId), { timeout: 8_000 }).toBe('online');

    // Bob closes the app: Ada reads two, and the admin's list no longer has him.
    await bob.page.close();
    await expect
      .poll(() => ada.page.getByTestId('online-count').textContent(), { timeout: 10_000 })
      .toBe('2 people online');
    await expect.poll(() => admin.getByTestId(`online-${bob.userId}`).count(), { timeout: 10_000 }).toBe(0);

    // The match screen says it too, over the wizard (or the ready screen).
    await ada.page.getByRole('link', { name: 'Start video matching' }).click();
    await ada.page.waitForURL(/\/video-match/);
    await expect
      .poll(() => ada.page.getByTestId('online-count').textContent(), { timeout: 10_000 })
      .toBe('2 people online');
    await screenshot(ada.page, 'presence-match-count-phone');

    // The admin's list on a phone.
    const phoneAdmin = await adminPage(VIEWPORTS.phone);
    await expect.poll(() => statusOf(phoneAdmin, ada.userId), { timeout: 15_000 }).toBe('online');
    await phoneAdmin.getByRole('heading', { name: /^Online now/ }).scrollIntoViewIfNeeded();
    await screenshot(phoneAdmin, 'presence-online-now-phone');
  }, 120_000);
});
