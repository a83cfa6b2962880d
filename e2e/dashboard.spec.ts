import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { mediasoupWorker } from '../backend/src/test-support/mediasoup-worker.js';
import { adminApi, finishAdminSignup, signInAdminInBrowser } from './support/admin.js';
import { type AppServer, startAppServer } from './support/app-server.js';
import { screenshot } from './support/artifacts.js';
import { browserUnavailable, launchChromium, VIEWPORTS } from './support/browser.js';
import { callPage, startMatching, videoFlowing } from './support/video-call.js';

const SFU_PORTS = { min: 21_500, max: 21_999 };
const ADMIN = { emailAddress: 'dashboard-admin@example.com', password: 'violet-harbour-lantern-42' };

/**
 * The admin dashboard in a real browser (spec 2 "Admin dashboard", 6, 7 /dash/*, 8): an admin signs in with the mailed
 * code and watches the overview's counters move as two strangers match; one reports the other and the report appears
 * in the table without a reload, with the reporter's screenshot beside the server's own frame; the admin bans from the
 * report and finds ReportFiled and UserBanned, with who did them, in the person's audit trail; the banned person
 * appeals and the admin approves it from the queue; the System Log pages through three pages and shows Server Down
 * when the API cannot be reached. Every page is photographed at 1440x900 and 375x812.
 */
describe.skipIf(browserUnavailable() ?? !mediasoupWorker())('the admin dashboard in a browser', () => {
  let server: AppServer;
  let browser: Browser;
  const contexts: BrowserContext[] = [];

  beforeAll(async () => {
    [server, browser] = await Promise.all([
      startAppServer({
        MEDIA_MODE: 'auto',
        SFU_RTC_MIN_PORT: String(SFU_PORTS.min),
        SFU_RTC_MAX_PORT: String(SFU_PORTS.max),
        ADMIN_EMAIL: ADMIN.emailAddress,
        ADMIN_PASSWORD: ADMIN.password,
        // Every request is a log line: the System Log has pages to turn.
        LOG_LEVEL: 'info',
      }),
      launchChromium(),
    ]);
    await finishAdminSignup(server, ADMIN);
  });
  // Each test's people go when it ends: an open page keeps its fake camera busy and slows the next test on two cores.
  afterEach(async () => {
    await Promise.all(contexts.splice(0).map((c) => c.close()));
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  const userIdOf = (page: Page) =>
    page.evaluate(async () => ((await (await fetch('/api/auth/user-info')).json()) as { _id: string })._id);
  const firstNameOf = (page: Page) =>
    page.evaluate(async () => ((await (await fetch('/api/auth/user-info')).json()) as { firstName: string }).firstName);

  /** The admin signs in as a person does: password, then the code mailed to them (the dev outbox shows it). */
  async function adminPage(viewport: { width: number; height: number }): Promise<Page> {
    // Reduced motion: the phone's drawer is photographed open, not sliding.
    const context = await browser.newContext({ viewport, reducedMotion: 'reduce' });
    contexts.push(context);
    await context.addInitScript(() => window.localStorage.setItem('serendip.cookieConsent', 'true'));
    const page = await context.newPage();
    page.on('pageerror', (error) => console.error(`admin page error: ${error.message}`));
    await signInAdminInBrowser(page, server, ADMIN);
    return page;
  }

  const counter = (page: Page, key: string) =>
    page
      .getByTestId(`counter-${key}`)
      .textContent()
      .then((text) => Number(text?.replace(/\D/g, '') ?? NaN));

  it('live overview, a report arriving with both pictures, a ban from it in the audit trail, an approved appeal, the System Log', async () => {
    const admin = await adminPage(VIEWPORTS.desktop);
    await expect.poll(() => counter(admin, 'inCalls')).toBe(0);
    await screenshot(admin, 'dashboard-overview-desktop');

    // Two strangers match: the overview's counters move without a reload.
    const ada = await callPage(browser, server.url, contexts);
    const bob = await callPage(browser, server.url, contexts);
    await expect.poll(() => counter(admin, 'onlineNow'), { timeout: 15_000 }).toBeGreaterThanOrEqual(3);
    await Promise.all([startMatching(ada), startMatching(bob)]);
    expect(await videoFlowing(ada)).toBe(true);
    await expect.poll(() => counter(admin, 'inCalls'), { timeout: 15_000 }).toBe(1);
    const [bobId, bobName] = [await userIdOf(bob), await firstNameOf(bob)];

    // The report table is open when Ada reports Bob: the report arrives live, with her screenshot and the SFU's frame.
    await admin.getByRole('link', { name: 'Reports' }).click();
    await admin.getByRole('heading', { level: 1, name: 'Reports' }).waitFor();
    await ada.getByRole('button', { name: 'Report' }).click();
    await ada.getByRole('img', { name: /Screenshot of .*'s video$/ }).waitFor();
    await ada.getByLabel('Reason').selectOption('harassment');
    await ada.getByRole('button', { name: 'Submit report' }).click();
    await ada.getByText('Report submitted successfully').waitFor();
    const row = admin.getByRole('row', { name: /^Report #\d+$/ }).first();
    await row.waitFor({ timeout: 20_000 });
    // Both names link to their pages; Bob is the reported one.
    const bobLink = row.locator(`a[href$="/dashboard/user-management/${bobId}/view-details"]`);
    expect(await bobLink.textContent()).toBe(bobName);
    const number = (await row.getAttribute('aria-label'))!.replace('Report #', '');
    await admin.getByRole('button', { name: `Enlarge the evidence of report #${number}` }).click();
    const evidence = admin.getByRole('dialog', { name: `Evidence for report #${number}` });
    const reporters = evidence.getByRole('img', { name: `Reporter's screenshot, report #${number}` });
    const servers = evidence.getByRole('img', { name: `Server snapshot, report #${number}` });
    // Both pictures load (a width of 0 is one still loading: wait for it, as the eye would).
    const widths = () =>
      Promise.all([reporters, servers].map((img) => img.evaluate((i: HTMLImageElement) => i.naturalWidth)));
    await expect.poll(async () => Math.min(...(await widths())), { timeout: 10_000 }).toBeGreaterThan(0);
    await screenshot(admin, 'dashboard-report-evidence-desktop');
    await admin.keyboard.press('Escape');
    await screenshot(admin, 'dashboard-reports-desktop');
    // At 1440x900 the whole row fits: Ban is in view without scrolling the table sideways.
    const wrap = admin.locator('.dash-table-wrap').first();
    expect(await wrap.evaluate((el) => el.scrollWidth - el.clientWidth)).toBeLessThanOrEqual(0);
    const banBox = (await row.getByRole('button', { name: 'Ban' }).boundingBox())!;
    expect(banBox.x + banBox.width).toBeLessThanOrEqual(VIEWPORTS.desktop.width);

    // A ban from the report, as the penalty policy suggests; Bob's page becomes the restriction screen.
    await row.getByRole('button', { name: 'Ban' }).click();
    const ban = admin.getByRole('dialog', { name: `Ban ${bobName}` });
    await ban.getByLabel('Reason (the user sees it)').fill('Harassment in a call');
    await ban.getByRole('button', { name: 'Ban user' }).click();
    await ban.waitFor({ state: 'hidden' });
    await bob.getByRole('heading', { name: 'Account Restricted' }).waitFor({ timeout: 15_000 });

    // Bob's page: the audit trail lists the report (by Ada) and the ban (by the admin), with who did them.
    await bobLink.click();
    await admin.waitForURL(new RegExp(`/dashboard/user-management/${bobId}/view-details$`));
    const trail = admin.getByRole('list', { name: 'Audit trail events' });
    await trail.waitFor();
    await expect.poll(() => trail.textContent()).toMatch(/ReportFiled/);
    const text = (await trail.textContent())!;
    expect(text).toMatch(/UserBanned/);
    // Each entry names its actor, linked to their own page: Ada filed the report, the admin banned.
    const adaId = await userIdOf(ada);
    const adminId = await userIdOf(admin);
    const filed = trail.getByRole('listitem').filter({ hasText: 'ReportFiled' }).first();
    const banned = trail.getByRole('listitem').filter({ hasText: 'UserBanned' }).first();
    const actorOf = (entry: typeof filed) =>
      entry.getByRole('link').evaluateAll((links) => links.map((a) => a.getAttribute('href')));
    expect(await actorOf(filed)).toContain(`/dashboard/user-management/${adaId}/view-details`);
    expect(await actorOf(banned)).toContain(`/dashboard/user-management/${adminId}/view-details`);
    expect(await banned.textContent()).toMatch(/Harassment in a call/);
    expect(await banned.textContent()).toMatch(/Root/);
    await screenshot(admin, 'dashboard-user-details-desktop');

    // Bob appeals; the admin approves it from the queue, and Bob's restriction lifts live.
    await bob.getByRole('button', { name: 'Appeal Decision' }).click();
    await bob.getByRole('textbox', { name: 'Your appeal' }).fill('It was a misunderstanding, I am sorry.');
    await bob
      .getByRole('form', { name: 'Appeal' })
      .getByRole('button', { name: /Submit/ })
      .click();
    await bob.getByText('Appeal submitted successfully.').waitFor();
    await admin.getByRole('link', { name: 'Appeals' }).click();
    const appeal = admin.getByRole('article', { name: `Appeal of ${bobName}` });
    await appeal.waitFor();
    await screenshot(admin, 'dashboard-appeals-desktop');
    await appeal.getByRole('textbox', { name: 'Decision note' }).fill('Accepted: first time.');
    await appeal.getByRole('button', { name: 'Approve' }).click();
    await appeal.waitFor({ state: 'hidden' });
    await bob.getByRole('heading', { name: 'Account Restricted' }).waitFor({ state: 'hidden', timeout: 15_000 });

    // User management lists people, searched from the header.
    await admin.getByRole('searchbox', { name: 'Search users' }).fill(bobName);
    await admin.keyboard.press('Enter');
    await admin.getByRole('heading', { level: 1, name: 'User Management' }).waitFor();
    await admin
      .getByRole('link', { name: new RegExp(bobName) })
      .first()
      .waitFor();
    await screenshot(admin, 'dashboard-users-desktop');

    // The System Log: three pages through Load More, then Server Down once the API cannot be reached.
    await admin.getByRole('link', { name: 'System Log' }).click();
    await admin.getByText('Server Operational').waitFor();
    const lines = admin.getByRole('list', { name: 'Log entries' }).getByRole('listitem');
    await expect.poll(() => lines.count()).toBeGreaterThan(0);
    for (let page = 2; page <= 3; page++) {
      const before = await lines.count();
      await admin.getByRole('button', { name: 'Load More' }).click();
      await expect.poll(() => lines.count()).toBeGreaterThan(before);
    }
    await screenshot(admin, 'dashboard-system-log-desktop');
    await admin.route('**/api/health', (route) => route.abort('connectionrefused'));
    await admin.getByRole('button', { name: 'Refresh Server Status' }).click();
    await admin.getByText('Server Down').waitFor();
    await admin.unroute('**/api/health');
    // A long walk through five pages with two people in a call: 42 s on a quiet run, past 60 s on a loaded one.
  }, 180_000);

  it('every dashboard page on a phone', async () => {
    const admin = await adminPage(VIEWPORTS.phone);
    const admin2 = await adminApi(server, ADMIN);
    const users = (await (await admin2('GET', '/dash/users?page=1')).json()) as { items: { _id: string }[] };
    const pages: [string, string, string][] = [
      ['/dashboard', 'Overview', 'dashboard-overview-phone'],
      ['/dashboard/reports', 'Reports', 'dashboard-reports-phone'],
      ['/dashboard/appeals', 'Appeals', 'dashboard-appeals-phone'],
      ['/dashboard/user-management', 'User Management', 'dashboard-users-phone'],
      ['/dashboard/server-logs', 'System Log', 'dashboard-system-log-phone'],
    ];
    for (const [path, title, name] of pages) {
      await admin.goto(`${server.url}${path}`);
      await admin.getByRole('heading', { level: 1, name: title }).waitFor();
      await admin.waitForLoadState('networkidle');
      await screenshot(admin, name);
      // Nothing wider than the phone: the page does not scroll sideways (a wide table scrolls in its own box).
      expect(await admin.evaluate(() => document.documentElement.scrollWidth), path).toBeLessThanOrEqual(375);
    }
    await admin.goto(`${server.url}/dashboard/user-management/${users.items[0]!._id}/view-details`);
    await admin.getByRole('list', { name: 'Audit trail events' }).waitFor();
    await screenshot(admin, 'dashboard-user-details-phone');
    expect(await admin.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
    // The sidebar is a drawer behind the menu button.
    await admin.getByRole('button', { name: 'Open menu' }).click();
    await admin.getByRole('link', { name: 'Reports' }).waitFor();
    await screenshot(admin, 'dashboard-menu-phone');
  });
});
