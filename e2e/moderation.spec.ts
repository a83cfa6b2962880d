import { createHash } from 'node:crypto';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mediasoupWorker } from '../backend/src/test-support/mediasoup-worker.js';
import { adminApi } from './support/admin.js';
import { type AppServer, startAppServer } from './support/app-server.js';
import { screenshot } from './support/artifacts.js';
import { browserUnavailable, launchChromium, VIEWPORTS } from './support/browser.js';
import { callPage, matchStatus, selectedPairs, startMatching, videoFlowing } from './support/video-call.js';

const SFU_PORTS = { min: 21_000, max: 21_499 };
const ADMIN = { emailAddress: 'moderation-admin@example.com', password: 'violet-harbour-lantern-42' };

/**
 * The safety half in real browsers (spec 2 "Report User dialog", "Banned-account screen", 4, 7): two strangers in a
 * peer-to-peer call, one reports the other with an automatic screenshot; the call moves to the SFU so the server's own
 * frame is evidence too; an admin bans the reported user, whose call ends and whose every page becomes the restriction
 * screen with a running countdown; one appeal, approved, and they match again, with someone else.
 */
describe.skipIf(browserUnavailable() ?? !mediasoupWorker())('moderation in browsers', () => {
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
      }),
      launchChromium(),
    ]);
  });
  afterAll(async () => {
    await Promise.all(contexts.map((c) => c.close()));
    await browser?.close();
    await server?.stop();
  });

  const asAdmin = () => adminApi(server, ADMIN);

  const userIdOf = (page: Page) =>
    page.evaluate(async () => ((await (await fetch('/api/auth/user-info')).json()) as { _id: string })._id);

  /** Every connected pair of the page ends at the app's SFU. */
  async function throughSfu(page: Page): Promise<boolean> {
    const pairs = await selectedPairs(page);
    return pairs.length > 0 && pairs.every((p) => p.remotePort! >= SFU_PORTS.min && p.remotePort! <= SFU_PORTS.max);
  }

  const sha256 = (bytes: ArrayBuffer) => createHash('sha256').update(Buffer.from(bytes)).digest('hex');

  it('report with evidence, ban, restriction screen, one appeal, approval, matching again', async () => {
    const ada = await callPage(browser, server.url, contexts);
    const bob = await callPage(browser, server.url, contexts, { viewport: VIEWPORTS.phone });

    await Promise.all([startMatching(ada), startMatching(bob)]);
    expect(await videoFlowing(ada)).toBe(true);
    expect(await matchStatus(ada)).toBe('connected');
    expect(await throughSfu(ada)).toBe(false);
    const [adaId, bobId] = [await userIdOf(ada), await userIdOf(bob)];

    // Every percentage the upload shows, as the page shows it.
    await ada.evaluate(() => {
      const seen: string[] = [];
      (window as unknown as { __uploadPercents: string[] }).__uploadPercents = seen;
      new MutationObserver(() => {
        const bar = document.querySelector('[role="progressbar"][aria-label="Screenshot upload"]');
        const now = bar?.getAttribute('aria-valuenow');
        if (now && seen[seen.length - 1] !== now) seen.push(now);
      }).observe(document.body, { subtree: true, childList: true, attributes: true });
    });
    await ada.getByRole('button', { name: 'Report' }).click();
    await ada.getByText('Screenshot captured automatically').first().waitFor();
    await ada.getByRole('img', { name: /Screenshot of .*'s video$/ }).waitFor();
    const percents = await ada.evaluate(() => (window as unknown as { __uploadPercents: string[] }).__uploadPercents);
    expect(percents.length).toBeGreaterThan(0);
    // Opening the dialog moved the call to the SFU, so the server can film the reported side itself.
    await expect.poll(() => throughSfu(ada), { timeout: 20_000, interval: 500 }).toBe(true);
    await expect.poll(() => throughSfu(bob), { timeout: 20_000, interval: 500 }).toBe(true);
    await ada.getByLabel('Reason').selectOption('harassment');
    expect(await ada.getByLabel('Severity').inputValue()).toBe('high');
    await screenshot(ada, 'report-dialog-desktop');
    await ada.getByRole('button', { name: 'Submit report' }).click();
    await ada.getByText('Report submitted successfully').waitFor();

    // The report holds both pictures; each file's bytes hash to the SHA-256 the log recorded.
    const admin = await asAdmin();
    const trail = (await (await admin('GET', `/admin/users/${bobId}/moderation-trail`)).json()) as {
      type: string;
      actor: string;
      data: { reportId: string; screenshot?: { sha256: string }; snapshotId?: string; sha256?: string };
    }[];
    const filed = trail.find((e) => e.type === 'ReportFiled')!;
    const attached = trail.find((e) => e.type === 'ServerSnapshotAttached')!;
    expect(filed.actor).toBe(adaId);
    const reporters = await admin('GET', `/admin/reports/${filed.data.reportId}/screenshot`);
    expect(sha256(await reporters.arrayBuffer())).toBe(filed.data.screenshot!.sha256);
    const servers = await admin('GET', `/admin/snapshots/${attached.data.snapshotId}`);
    expect(sha256(await servers.arrayBuffer())).toBe(attached.data.sha256);

    // A 24-hour ban, as the penalty policy suggests for a first moderate violation.
    const ban = await admin('POST', `/admin/users/${bobId}/ban`, {
      reason: 'Harassment in a call',
      level: 'moderate',
      penalty: { kind: 'restriction', days: 1 },
      reportId: filed.data.reportId,
    });
    expect(ban.status).toBe(201);
    const { caseId } = (await ban.json()) as { caseId: string };
    // Bob's call ends at once and his page becomes the restriction screen; Ada searches again.
    await bob.getByRole('heading', { name: 'Account Restricted' }).waitFor({ timeout: 15_000 });
    await ada.waitForFunction(
      () => document.querySelector('[data-match-status]')?.getAttribute('data-match-status') === 'searching',
      undefined,
      { timeout: 15_000 },
    );
    await ada.getByRole('button', { name: 'Leave Matching' }).click();
    for (const path of ['/', '/video-match', '/security-center']) {
      await bob.goto(`${server.url}${path}`);
      await bob.getByRole('heading', { name: 'Account Restricted' }).waitFor();
    }
    await bob.getByText('Harassment in a call').waitFor();
    const countdown = bob.getByRole('timer');
    const first = await countdown.innerText();
    await bob.waitForTimeout(1_500);
    expect(await countdown.innerText()).not.toBe(first);
    await screenshot(bob, 'banned-screen-phone');

    await bob.getByRole('button', { name: 'Appeal Decision' }).click();
    await bob
      .getByPlaceholder('Explain why you believe this ban should be reconsidered...')
      .fill('It was my brother on my account; I have changed my password.');
    await bob.getByRole('button', { name: 'Submit Appeal' }).click();
    await bob.getByText('Appeal submitted successfully.').waitFor();
    await bob.getByText(/You've appealed for this restriction already/).waitFor();
    // One appeal per ban: a second is refused by the server, whatever the page offers.
    const second = await bob.evaluate(
      async (id) =>
        (
          await fetch(`/api/user/appeal-ban/${id}`, {
            method: 'PUT',
            headers: { 'Content-Type': 'application/json' },
            body: JSON.stringify({ appealExplanation: 'Please, again' }),
          })
        ).status,
      bobId,
    );
    expect(second).toBe(409);

    const approved = await admin('POST', `/admin/bans/${caseId}/appeal`, { outcome: 'approved', note: 'Credible' });
    expect(approved.status).toBe(200);
    await bob.getByRole('heading', { name: 'Account Restricted' }).waitFor({ state: 'detached', timeout: 15_000 });

    // Bob matches again: with Cleo, never again with Ada (the report keeps them apart).
    await bob.goto(`${server.url}/video-match`);
    // His preferences were saved at his first start: the ready screen.
    await bob.getByRole('heading', { name: 'Your Preferences' }).waitFor();
    const cleo = await callPage(browser, server.url, contexts);
    await Promise.all([startMatching(bob), startMatching(cleo)]);
    expect(await videoFlowing(bob)).toBe(true);
    expect(await matchStatus(cleo)).toBe('connected');

    await bob.goto(`${server.url}/security-center/view-ban-history`);
    await bob.getByText('Harassment in a call').waitFor();
    await bob.getByText('Credible').waitFor();
    await screenshot(bob, 'ban-history-phone');
  }, 240_000);
});
