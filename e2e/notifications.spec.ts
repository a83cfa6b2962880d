import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signedInAccount } from './support/accounts.js';
import { finishAdminSignup, signInAdminInBrowser } from './support/admin.js';
import { type AppServer, startAppServer } from './support/app-server.js';
import { screenshot } from './support/artifacts.js';
import { seriousA11yProblems } from './support/axe.js';
import { browserUnavailable, launchChromium, VIEWPORTS } from './support/browser.js';

const ADMIN = { emailAddress: 'notifications-admin@example.com', password: 'violet-harbour-lantern-42' };
const FORCED = {
  title: 'Scheduled maintenance tonight',
  description: 'Video matching pauses from 22:00 to 22:15 UTC while we upgrade the servers.',
  words: 'Thank you for bearing with us. See you on the other side!',
};
const SOUND = /\/sounds\/notification-(10|[1-9])\.mp3$/;

interface Played {
  src: string;
  outcome: string;
}

/** What a test reads of a page: its system socket's state, and the forced-open list fetches it made. */
function watch(page: Page) {
  const sockets: { open: boolean; closed: boolean }[] = [];
  const seen = { forcedFetches: 0 };
  page.on('websocket', (ws) => {
    if (!ws.url().includes('/socket.io/')) return;
    const socket = { open: false, closed: false };
    sockets.push(socket);
    // Socket.IO's CONNECT answer for the default namespace is the frame '40{...}'.
    ws.on('framereceived', ({ payload }) => {
      if (typeof payload === 'string' && payload.startsWith('40')) socket.open = true;
    });
    ws.on('close', () => (socket.closed = true));
  });
  page.on('request', (request) => {
    if (request.url().includes('/api/notifications/force-open/')) seen.forcedFetches += 1;
  });
  return {
    socketOpen: () => sockets.some((s) => s.open && !s.closed),
    forcedFetches: () => seen.forcedFetches,
  };
}

/**
 * Notifications in a real browser (spec 2 "Global overlays", 4 "Notifications", 7 newNotification): an admin sends a
 * forced-open announcement to everyone from the dashboard and two users' screens (a desktop and a phone) show it at
 * once, without asking the server; OK dismisses it for good (not back after a reload). Then a normal announcement to
 * one of them raises that user's unread count and plays one of the 10 sounds (HTMLMediaElement.play observed); the
 * other hears nothing. The bell's dropdown, the notifications page and the overlay are photographed at 1440 and 375.
 */
describe.skipIf(browserUnavailable())('notifications in a browser', () => {
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
    await context.addInitScript(() => {
      window.localStorage.setItem('serendip.cookieConsent', 'true');
      // Every play() the page asks for, with how it went (headless Chromium may refuse autoplay: only logged).
      const played: { src: string; outcome: string }[] = [];
      (window as unknown as { __played: typeof played }).__played = played;
      const play = HTMLMediaElement.prototype.play;
      HTMLMediaElement.prototype.play = function (this: HTMLMediaElement) {
        const entry = { src: this.currentSrc || this.src, outcome: 'pending' };
        played.push(entry);
        const result = play.call(this);
        result.then(
          () => (entry.outcome = 'played'),
          (error: Error) => (entry.outcome = error.name),
        );
        return result;
      };
    });
    return context;
  }

  /** A signed-in user on home, with the system socket open and the notifications fetched that its connect asks. */
  async function userPage(viewport: { width: number; height: number }) {
    const context = await newContext(viewport);
    const account = await signedInAccount(server.url, context);
    const page = await context.newPage();
    page.on('pageerror', (error) => console.error(`user page error: ${error.message}`));
    const seen = watch(page);
    await page.goto(`${server.url}/`);
    await bell(page).waitFor();
    await expect.poll(seen.socketOpen, { timeout: 15_000 }).toBe(true);
    await expect.poll(seen.forcedFetches, { timeout: 10_000 }).toBeGreaterThan(0);
    return { page, account, seen };
  }

  const bell = (page: Page) => page.getByRole('button', { name: /^Notifications, / });
  const unread = async (page: Page) => {
    const label = (await bell(page).textContent()) ?? '';
    return /none unread/.test(label) ? 0 : Number(/(\d+) unread/.exec(label)?.[1] ?? NaN);
  };
  const played = (page: Page) => page.evaluate(() => (window as unknown as { __played: Played[] }).__played);

  async function sendAnnouncement(
    admin: Page,
    fields: { title: string; description: string; words?: string; forceOpen: boolean; toUsername?: string },
  ) {
    await admin.getByRole('textbox', { name: 'Title' }).fill(fields.title);
    await admin.getByRole('textbox', { name: 'Description' }).fill(fields.description);
    if (fields.words) await admin.getByRole('textbox', { name: 'Admin announcement (optional)' }).fill(fields.words);
    if (fields.toUsername) {
      await admin.getByRole('radio', { name: 'One user' }).check();
      await admin.getByRole('searchbox', { name: 'Recipient' }).fill(fields.toUsername);
      await admin.getByRole('button', { name: new RegExp(`@${fields.toUsername}`) }).click();
    }
    if (fields.forceOpen) await admin.getByRole('switch', { name: 'Force open' }).click();
    await admin.getByRole('button', { name: 'Send' }).click();
  }

  it('a forced-open announcement shows live on every screen until OK; a normal one counts and plays a sound', async () => {
    const ada = await userPage(VIEWPORTS.desktop);
    const bob = await userPage(VIEWPORTS.phone);
    const adminContext = await newContext(VIEWPORTS.desktop);
    const admin = await adminContext.newPage();
    admin.on('pageerror', (error) => console.error(`admin page error: ${error.message}`));
    await signInAdminInBrowser(admin, server, ADMIN);
    await admin.getByRole('link', { name: 'Announcements' }).click();
    await admin.getByRole('heading', { level: 1, name: 'Announcements' }).waitFor();

    // The form says what is missing before anything is sent.
    await admin.getByRole('button', { name: 'Send' }).click();
    await admin.getByText('Give the announcement a title.').waitFor();
    await screenshot(admin, 'notifications-announcement-form-desktop');

    // To everyone, forced open: both screens show it live (no fetch of the forced list), with the admin's words.
    const fetchesBefore = [ada.seen.forcedFetches(), bob.seen.forcedFetches()];
    const playedBefore = [(await played(ada.page)).length, (await played(bob.page)).length];
    await sendAnnouncement(admin, { ...FORCED, forceOpen: true });
    await admin.getByText('Announcement sent to everyone.').waitFor();
    for (const { page } of [ada, bob]) {
      const overlay = page.getByRole('alertdialog', { name: FORCED.title });
      await overlay.waitFor({ timeout: 5_000 });
      expect(await overlay.textContent()).toContain(FORCED.description);
      expect(await overlay.textContent()).toContain(FORCED.words);
    }
    expect([ada.seen.forcedFetches(), bob.seen.forcedFetches()]).toEqual(fetchesBefore);
    // Each live arrival plays one sound.
    await expect.poll(async () => (await played(ada.page)).length).toBe(playedBefore[0]! + 1);
    await expect.poll(async () => (await played(bob.page)).length).toBe(playedBefore[1]! + 1);
    await screenshot(ada.page, 'notifications-overlay-desktop');
    expect(await seriousA11yProblems(ada.page)).toEqual([]);
    await screenshot(bob.page, 'notifications-overlay-phone');
    // The admin is one of everyone too.
    const adminOverlay = admin.getByRole('alertdialog', { name: FORCED.title });
    await adminOverlay.waitFor({ timeout: 10_000 });
    await adminOverlay.getByRole('button', { name: 'OK' }).click();

    // OK dismisses it, for good: a reload does not bring it back.
    for (const { page } of [ada, bob]) {
      const confirmed = page.waitForResponse((r) => r.url().includes('/markForceAsRead'));
      await page.getByRole('alertdialog', { name: FORCED.title }).getByRole('button', { name: 'OK' }).click();
      expect((await confirmed).ok()).toBe(true);
      await page.getByRole('alertdialog').waitFor({ state: 'detached' });
      const forcedList = page.waitForResponse((r) => r.url().includes('/api/notifications/force-open/'));
      await page.reload();
      const answer = await forcedList;
      expect(answer.status()).toBe(200);
      expect(((await answer.json()) as { title: string }[]).map((n) => n.title)).not.toContain(FORCED.title);
      await bell(page).waitFor();
      await page.waitForTimeout(500);
      expect(await page.getByRole('alertdialog').count()).toBe(0);
    }

    // A normal announcement to Ada alone: her unread count rises and one of the 10 sounds plays; Bob hears nothing.
    for (const { page } of [ada, bob])
      await expect.poll(() => page.evaluate(() => document.readyState)).toBe('complete');
    await expect.poll(ada.seen.socketOpen, { timeout: 15_000 }).toBe(true);
    await expect.poll(bob.seen.socketOpen, { timeout: 15_000 }).toBe(true);
    const adaUsername = await ada.page.evaluate(
      async () => ((await (await fetch('/api/auth/user-info')).json()) as { username: string }).username,
    );
    const [adaUnread, bobUnread] = [await unread(ada.page), await unread(bob.page)];
    const [adaPlayed, bobPlayed] = [(await played(ada.page)).length, (await played(bob.page)).length];
    await sendAnnouncement(admin, {
      title: 'Your report was reviewed',
      description: 'Thanks for telling us. We took action on the account you reported.',
      forceOpen: false,
      toUsername: adaUsername,
    });
    await admin.getByText(/^Announcement sent to /).waitFor();
    await expect.poll(() => unread(ada.page), { timeout: 5_000 }).toBe(adaUnread + 1);
    await expect.poll(async () => (await played(ada.page)).length).toBe(adaPlayed + 1);
    expect((await played(ada.page)).at(-1)?.src).toMatch(SOUND);
    expect(await ada.page.getByRole('alertdialog').count()).toBe(0);
    await ada.page.waitForTimeout(1_000);
    expect(await unread(bob.page)).toBe(bobUnread);
    expect((await played(bob.page)).length).toBe(bobPlayed);

    // The 10 sounds are real files Chromium decodes, each under a second.
    const durations = await ada.page.evaluate(() =>
      Promise.all(
        Array.from(
          { length: 10 },
          (_, i) =>
            new Promise<number | string>((resolve) => {
              const audio = new Audio(`/sounds/notification-${i + 1}.mp3`);
              audio.addEventListener('canplaythrough', () => resolve(audio.duration), { once: true });
              audio.addEventListener('error', () => resolve(`error ${audio.error?.code}`), { once: true });
              audio.load();
            }),
        ),
      ),
    );
    for (const duration of durations) expect(duration).toBeGreaterThan(0.3);
    for (const duration of durations) expect(duration).toBeLessThan(1);

    // The bell's dropdown and the full page, on a desktop and a phone.
    await bell(ada.page).click();
    const menu = ada.page.getByRole('menu', { name: 'Notifications' });
    await menu.getByText('Your report was reviewed').waitFor();
    await screenshot(ada.page, 'notifications-bell-desktop');
    expect(await seriousA11yProblems(ada.page)).toEqual([]);
    await bell(bob.page).click();
    await bob.page.getByRole('menu', { name: 'Notifications' }).getByText(FORCED.title).waitFor();
    await screenshot(bob.page, 'notifications-bell-phone');
    await bob.page.keyboard.press('Escape');

    // Opening one from the dropdown marks it read.
    await menu.getByText('Your report was reviewed').click();
    await expect.poll(() => unread(ada.page)).toBe(adaUnread);
    for (const [{ page }, name] of [
      [ada, 'notifications-page-desktop'],
      [bob, 'notifications-page-phone'],
    ] as const) {
      await page.goto(`${server.url}/notifications`);
      await page.getByRole('heading', { level: 1, name: 'Notifications' }).waitFor();
      await page.getByText(FORCED.title).waitFor();
      // The bell and the phone's bottom bar are chunks of their own: photographed once they are in.
      await bell(page).waitFor();
      if (page === bob.page) await page.getByRole('button', { name: 'Menu' }).waitFor();
      await screenshot(page, name);
      expect(await seriousA11yProblems(page)).toEqual([]);
    }

    // The form on a phone: one user picked, forced open.
    await admin.setViewportSize(VIEWPORTS.phone);
    await admin.getByRole('radio', { name: 'One user' }).check();
    await admin.getByRole('searchbox', { name: 'Recipient' }).fill(adaUsername);
    await admin.getByRole('button', { name: new RegExp(`@${adaUsername}`) }).click();
    await admin.getByRole('switch', { name: 'Force open' }).click();
    await admin.getByText(/^Announcement sent to /).waitFor({ state: 'detached', timeout: 10_000 });
    // From the top: the dashboard's header is sticky, and a full-page picture draws it where the page was scrolled to.
    await admin.evaluate(() => window.scrollTo(0, 0));
    await screenshot(admin, 'notifications-announcement-form-phone');
    expect(await seriousA11yProblems(admin)).toEqual([]);
  }, 180_000);
});
