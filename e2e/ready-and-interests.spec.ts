import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AppServer, startAppServer } from './support/app-server.js';
import { screenshot } from './support/artifacts.js';
import { browserUnavailable, launchChromium, VIEWPORTS } from './support/browser.js';
import { type Coturn, coturnUnavailable, startCoturn } from './support/coturn.js';
import { callPage, matchStatus, startMatching, videoFlowing } from './support/video-call.js';

/**
 * The fast path to the next stranger: the wizard runs once, the account keeps its preferences, and every later start
 * (after Leave, or on another visit) is one click on the ready screen. And interests: among compatible people
 * waiting, two who share one are paired together and see it.
 */
describe.skipIf(browserUnavailable() ?? coturnUnavailable())('the ready screen and shared interests', () => {
  let server: AppServer;
  let coturn: Coturn;
  let browser: Browser;
  const contexts: BrowserContext[] = [];

  beforeAll(async () => {
    coturn = await startCoturn();
    [server, browser] = await Promise.all([startAppServer({ ...coturn.env, MEDIA_MODE: 'p2p' }), launchChromium()]);
  });
  afterAll(async () => {
    await Promise.all(contexts.map((c) => c.close()));
    await browser?.close();
    await server?.stop();
    await coturn?.stop();
  });

  /** Through the wizard to its last step, adding interests there. */
  async function readyWithInterests(page: Page, interests: string[]) {
    for (const title of ['Select Country', 'Select Age Range', 'Your Preferences']) {
      await page.getByRole('button', { name: 'Next' }).click();
      await page.getByRole('heading', { name: title }).waitFor();
    }
    const field = page.getByLabel('Interests (optional)');
    for (const interest of interests) await field.fill(interest).then(() => field.press('Enter'));
  }

  it('after Leave, and on the next visit, opens the ready screen with the saved preferences and a camera preview', async () => {
    const ada = await callPage(browser, server.url, contexts);
    const bob = await callPage(browser, server.url, contexts);
    await Promise.all([startMatching(ada), startMatching(bob)]);
    expect(await videoFlowing(ada)).toBe(true);

    await ada.getByRole('button', { name: 'Leave Matching' }).click();
    // Straight to the ready screen: no wizard steps, Start and Edit, and Ada's own camera playing.
    await ada.getByRole('heading', { name: 'Your Preferences' }).waitFor();
    expect(await ada.getByRole('button', { name: 'Edit' }).isVisible()).toBe(true);
    expect(await ada.getByRole('button', { name: 'Back' }).count()).toBe(0);
    await ada.waitForFunction(() => {
      const video = document.querySelector<HTMLVideoElement>('[data-testid="self-video"]');
      return !!video && video.videoWidth > 0 && !video.paused;
    });
    expect(await ada.getByRole('img', { name: 'Microphone level' }).isVisible()).toBe(true);
    await screenshot(ada, 'ready-screen-desktop');

    // Another visit of the same account: the server kept the preferences.
    await ada.reload();
    await ada.getByRole('heading', { name: 'Your Preferences' }).waitFor();
    await ada.setViewportSize(VIEWPORTS.phone);
    await screenshot(ada, 'ready-screen-phone');
    await ada.setViewportSize(VIEWPORTS.desktop);

    // One click to the next stranger (Bob is searching again since Ada left).
    await ada.getByRole('button', { name: 'Start Matching' }).click();
    expect(await videoFlowing(ada)).toBe(true);
    expect(await matchStatus(bob)).toBe('connected');

    // Leaving turns the camera off: on the ready screen again it comes back for the preview only.
    await ada.getByRole('button', { name: 'Leave Matching' }).click();
    await ada.getByRole('button', { name: 'Edit' }).click();
    await ada.getByRole('heading', { name: 'Select Gender' }).waitFor();
    // Bob searches on: gone before the next test, so he is nobody's stranger there.
    await Promise.all([ada.context().close(), bob.context().close()]);
  });

  it('pairs the two who share an interest among three compatible strangers, and shows it to both', async () => {
    const [ada, bob, cleo] = await Promise.all([1, 2, 3].map(() => callPage(browser, server.url, contexts)));
    await readyWithInterests(ada!, ['Chess', 'hiking']);
    await readyWithInterests(bob!, []);
    await readyWithInterests(cleo!, ['jazz', 'chess']);
    // Ada waits for someone who likes chess (at most INTEREST_WAIT_MS, 5 s); Bob, with no interests, comes next;
    // Cleo, who likes chess, last.
    const start = async (page: Page) => {
      await page.getByRole('button', { name: 'Start Matching' }).click();
      await page.locator('[data-match-status="searching"]').waitFor();
    };
    await start(ada!);
    await start(bob!);
    await new Promise((r) => setTimeout(r, 500));
    expect(await matchStatus(ada!)).toBe('searching');
    await start(cleo!);

    for (const page of [ada!, cleo!]) {
      await page.getByLabel('You both like chess').waitFor({ timeout: 10_000 });
      expect(await videoFlowing(page)).toBe(true);
    }
    await screenshot(cleo!, 'call-shared-interest');
    // Bob was compatible with both but shares nothing: he is still looking.
    expect(await matchStatus(bob!)).toBe('searching');
  });
});
