import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { videoUser } from '../backend/src/test-support/video-users.js';
import { adminApi, finishAdminSignup, signInAdminInBrowser } from './support/admin.js';
import { type AppServer, startAppServer } from './support/app-server.js';
import { ARTIFACTS_DIR } from './support/artifacts.js';
import { seriousA11yProblems } from './support/axe.js';
import { browserUnavailable, launchChromium, VIEWPORTS } from './support/browser.js';

const ADMIN = { emailAddress: 'audit-admin@example.com', password: 'violet-harbour-lantern-42' };

/**
 * An admin audits a person's complete history in a real browser (spec 6 Admin): on the person's details page, an
 * audit-trail entry's View history opens its stream's whole history (the admin audit API), oldest first, with who
 * acted, the reason and the fields opened (the e-mail address, the bio). Photographed at 1440x900 and 375x812; on a
 * phone it is a sheet that fits the screen.
 */
describe.skipIf(browserUnavailable())("an audit-trail entry's whole history in a browser", () => {
  let server: AppServer;
  let browser: Browser;
  const contexts: BrowserContext[] = [];
  let bea: Awaited<ReturnType<typeof videoUser>>;

  beforeAll(async () => {
    [server, browser] = await Promise.all([
      startAppServer({ MEDIA_MODE: 'p2p', ADMIN_EMAIL: ADMIN.emailAddress, ADMIN_PASSWORD: ADMIN.password }),
      launchChromium(),
    ]);
    await finishAdminSignup(server, ADMIN);
    // Bea signs up, writes her bio twice, and is warned by the admin: her account stream and her moderation record.
    bea = await videoUser(server.url, { firstName: 'Bea' });
    for (const bio of ['Climbs on weekends.', 'Climbs and bakes bread.']) {
      expect((await bea.api.call('POST', '/user/edit-profile', { bio })).status).toBe(200);
    }
    const admin = await adminApi(server, ADMIN);
    const banned = await admin('POST', `/admin/users/${bea.user._id}/ban`, {
      reason: 'Spamming the chat',
      level: 'moderate',
      penalty: { kind: 'restriction', days: 1 },
    });
    expect(banned.status).toBe(201);
  });
  afterAll(async () => {
    await Promise.all(contexts.map((c) => c.close()));
    await browser?.close();
    await server?.stop();
  });

  async function adminPage(viewport: { width: number; height: number }): Promise<Page> {
    const context = await browser.newContext({ viewport, reducedMotion: 'reduce' });
    contexts.push(context);
    await context.addInitScript(() => window.localStorage.setItem('serendip.cookieConsent', 'true'));
    const page = await context.newPage();
    page.on('pageerror', (error) => console.error(`admin page error: ${error.message}`));
    await signInAdminInBrowser(page, server, ADMIN);
    return page;
  }

  for (const [size, viewport] of Object.entries(VIEWPORTS)) {
    it(`opens the account's history from a trail entry (${size})`, async () => {
      const admin = await adminPage(viewport);
      await admin.goto(`${server.url}/dashboard/user-management/${bea.user._id}/view-details`);
      const trail = admin.getByRole('list', { name: 'Audit trail events' });
      await trail.waitFor();
      await expect.poll(() => trail.textContent(), { timeout: 10_000 }).toMatch(/UserBanned/);
      const edited = trail.getByRole('listitem').filter({ hasText: 'ProfileEdited' }).first();
      await edited.getByRole('button', { name: /^View history/ }).click();

      const dialog = admin.getByRole('dialog', { name: 'History: Account' });
      const events = dialog.getByRole('list', { name: 'History events' });
      await events.waitFor();
      const types = await events.locator(':scope > li strong').allTextContents();
      expect(types.slice(0, 3)).toEqual(['UserRegistered', expect.any(String), expect.any(String)]);
      expect(types.filter((t) => t === 'ProfileEdited')).toHaveLength(2);
      const text = (await events.textContent())!;
      // Personal fields opened for the admin; the entry it was opened from marked.
      expect(text).toContain(bea.user.emailAddress);
      expect(text).toContain('Climbs and bakes bread.');
      expect(text).toContain('by a signed-out visitor');
      expect(text).not.toContain('passwordHash');
      expect(await events.locator('li[aria-current="true"]').count()).toBe(1);
      // The screen as the admin sees it (a full-page picture would draw the fixed dialog at the page's top).
      await admin.screenshot({ path: `${ARTIFACTS_DIR}dashboard-stream-history-${size}.png` });
      // Nothing wider than the screen: long ids and e-mail addresses wrap inside the dialog.
      const dialogBox = (await dialog.boundingBox())!;
      expect(dialogBox.x + dialogBox.width).toBeLessThanOrEqual(viewport.width);
      expect(await admin.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(viewport.width);
      expect(await seriousA11yProblems(admin, '[role="dialog"]')).toEqual([]);

      // The moderation record's history from the ban's entry, with its reason.
      await dialog.getByRole('button', { name: 'Close' }).click();
      await dialog.waitFor({ state: 'hidden' });
      const ban = trail.getByRole('listitem').filter({ hasText: 'UserBanned' }).first();
      await ban.getByRole('button', { name: /^View history/ }).click();
      const record = admin.getByRole('dialog', { name: 'History: Moderation record' });
      await expect.poll(() => record.textContent(), { timeout: 10_000 }).toMatch(/reason: Spamming the chat/);
      expect(await record.getByRole('link', { name: 'Root' }).count()).toBeGreaterThan(0);
    });
  }
});
