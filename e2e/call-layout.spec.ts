import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AppServer, startAppServer } from './support/app-server.js';
import { screenshot } from './support/artifacts.js';
import { browserUnavailable, launchChromium } from './support/browser.js';
import { type Coturn, coturnUnavailable, startCoturn } from './support/coturn.js';
import { callPage, matchStatus, startMatching, videoFlowing } from './support/video-call.js';

/** Two phones, a tablet, a laptop and a large screen (spec 2: separate phone and desktop layouts). */
const SIZES = [
  { width: 375, height: 667 },
  { width: 390, height: 844 },
  { width: 768, height: 1024 },
  { width: 1440, height: 900 },
  { width: 1920, height: 1080 },
] as const;
const isPhone = (size: { width: number }) => size.width < 768;

interface Box {
  name: string;
  left: number;
  top: number;
  right: number;
  bottom: number;
}

interface Layout {
  viewport: { width: number; height: number };
  /** What a user reads or presses on the call: the toolbar's buttons, the partner's details, the self tile, notices. */
  controls: Box[];
  toolbar: Box;
  stage: Box;
  partnerVideo: Box | null;
  chat: Box | null;
  header: Box | null;
  scrollWidth: number;
  scrollHeight: number;
  footerShown: boolean;
  bottomNavShown: boolean;
  keysHint: Box | null;
}

/** The boxes of the call's parts as laid out now (getBoundingClientRect), the hidden ones left out. */
function layoutOf(page: Page): Promise<Layout> {
  return page.evaluate(() => {
    const boxOf = (element: Element | null, name = ''): Box | null => {
      if (!element) return null;
      const style = getComputedStyle(element);
      const rect = element.getBoundingClientRect();
      if (style.visibility === 'hidden' || style.display === 'none' || rect.width < 2 || rect.height < 2) return null;
      return { name, left: rect.left, top: rect.top, right: rect.right, bottom: rect.bottom };
    };
    const named = (element: Element) =>
      element.getAttribute('aria-label') ?? (element as HTMLElement).innerText.replace(/\s+/g, ' ').trim();
    const controls = [
      ...Array.from(document.querySelectorAll('[role="toolbar"] button'), (b) => boxOf(b, `button ${named(b)}`)),
      boxOf(document.querySelector('.match-partner__info'), 'partner info'),
      boxOf(document.querySelector('.match-status'), 'status line'),
      boxOf(document.querySelector('[data-testid="self-tile"]'), 'self tile'),
      boxOf(document.querySelector('.match-call-notice'), 'call notice'),
    ].filter((box): box is Box => box !== null);
    return {
      viewport: { width: window.innerWidth, height: window.innerHeight },
      controls,
      toolbar: boxOf(document.querySelector('[role="toolbar"]'), 'toolbar')!,
      stage: boxOf(document.querySelector('.match-stage'), 'stage')!,
      partnerVideo: boxOf(document.querySelector('[data-testid="partner-video"]'), 'partner video'),
      chat: boxOf(document.querySelector('.match-chat'), 'chat'),
      header: boxOf(document.querySelector('.shell__header'), 'header'),
      scrollWidth: document.documentElement.scrollWidth,
      scrollHeight: document.documentElement.scrollHeight,
      footerShown: boxOf(document.querySelector('footer')) !== null,
      bottomNavShown: boxOf(document.querySelector('.mobile-nav')) !== null,
      keysHint: boxOf(document.querySelector('.match-keys'), 'keys hint'),
    };
  });
}

const overlap = (a: Box, b: Box) =>
  Math.min(a.right, b.right) - Math.max(a.left, b.left) > 0.5 &&
  Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top) > 0.5;

/** Every pair of the call's controls that cover each other, by name. */
const overlapping = (boxes: Box[]) =>
  boxes.flatMap((a, i) => boxes.slice(i + 1).flatMap((b) => (overlap(a, b) ? [`${a.name} / ${b.name}`] : [])));

/** The controls cut off by the window's edge, by name. */
const cutOff = ({ controls, viewport }: Layout) =>
  controls
    .filter((c) => c.left < -0.5 || c.top < -0.5 || c.right > viewport.width + 0.5 || c.bottom > viewport.height + 0.5)
    .map((c) => c.name);

const area = (box: Box) => (box.right - box.left) * (box.bottom - box.top);

/** The layout settles in a frame or two after a resize (the grid, the video's fit). */
async function resizeTo(page: Page, size: { width: number; height: number }) {
  await page.setViewportSize(size);
  await page.evaluate(() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))));
  await page.waitForTimeout(300);
}

/**
 * The call screen at five sizes with two users in a real call (peer to peer through a local coturn): nothing covers
 * anything, nothing is cut off or scrolls sideways, a phone's screen is mostly the partner, a desktop's call takes
 * the window's height and its chat opens beside the videos without moving the controls; and Esc Esc skips.
 */
describe.skipIf(browserUnavailable() ?? coturnUnavailable())('the call at phone and desktop sizes', () => {
  let server: AppServer;
  let coturn: Coturn;
  let browser: Browser;
  const contexts: BrowserContext[] = [];
  let ada: Page;
  let bob: Page;

  beforeAll(async () => {
    coturn = await startCoturn();
    [server, browser] = await Promise.all([startAppServer({ ...coturn.env, MEDIA_MODE: 'p2p' }), launchChromium()]);
    ada = await callPage(browser, server.url, contexts);
    bob = await callPage(browser, server.url, contexts);
    await Promise.all([startMatching(ada), startMatching(bob)]);
    expect(await videoFlowing(ada)).toBe(true);
    expect(await videoFlowing(bob)).toBe(true);
  }, 120_000);
  afterAll(async () => {
    await Promise.all(contexts.map((c) => c.close()));
    await browser?.close();
    await server?.stop();
    await coturn?.stop();
  });

  const chatButton = () => ada.getByRole('button', { name: 'Chat', exact: true });

  function expectUsable(layout: Layout) {
    expect(overlapping(layout.controls)).toEqual([]);
    expect(cutOff(layout)).toEqual([]);
    expect(layout.scrollWidth).toBeLessThanOrEqual(layout.viewport.width);
  }

  it.each(SIZES)('$width x $height: every control in view and apart, the partner large', async (size) => {
    await resizeTo(ada, size);
    expect(await matchStatus(ada)).toBe('connected');
    const name = `call-layout-${size.width}x${size.height}`;
    await screenshot(ada, name);
    const closed = await layoutOf(ada);
    expectUsable(closed);
    // The call has the screen: no footer, no bottom bar, nothing below to scroll to.
    expect(closed.footerShown).toBe(false);
    expect(closed.bottomNavShown).toBe(false);
    expect(closed.scrollHeight).toBeLessThanOrEqual(size.height);
    expect(closed.controls.map((c) => c.name)).toEqual(
      expect.arrayContaining([
        'partner info',
        'self tile',
        expect.stringContaining('Skip Conversation'),
        'button Leave Matching',
      ]),
    );

    if (isPhone(size)) {
      // The partner fills the screen; the header is gone; the controls are one row at the bottom, over the video.
      expect(area(closed.partnerVideo!) / (size.width * size.height)).toBeGreaterThanOrEqual(0.6);
      expect(closed.header).toBeNull();
      const buttons = closed.controls.filter((c) => c.name.startsWith('button '));
      expect(new Set(buttons.map((b) => Math.round(b.top + (b.bottom - b.top) / 2))).size).toBe(1);
      expect(closed.toolbar.bottom).toBeGreaterThan(size.height - 8);
      // 'Next' is the big one, for the thumb.
      const next = ada.getByRole('button', { name: /Skip Conversation/ });
      expect(await next.textContent()).toContain('Next');
      const nextBox = (await next.boundingBox())!;
      expect(nextBox.width).toBeGreaterThanOrEqual(80);
      expect(nextBox.height).toBeGreaterThanOrEqual(48);
      expect(closed.keysHint).toBeNull();
    } else {
      // The stage takes the height left by the header, the controls and the keys' hint.
      const taken = (closed.header ? closed.header.bottom : 0) + closed.toolbar.bottom - closed.toolbar.top;
      const hint = closed.keysHint ? closed.keysHint.bottom - closed.keysHint.top : 0;
      expect(closed.stage.bottom - closed.stage.top).toBeGreaterThanOrEqual(size.height - taken - hint - 56);
      expect(closed.keysHint).not.toBeNull();
      expect(await ada.getByText('to skip · Enter to send').isVisible()).toBe(true);
    }

    // The chat: beside (or, upright, under) the videos on a desktop, with the controls where they were.
    await chatButton().click();
    await ada.getByRole('heading', { name: /^Message / }).waitFor();
    await resizeTo(ada, size);
    await screenshot(ada, `${name}-chat`);
    const open = await layoutOf(ada);
    expect(open.chat).not.toBeNull();
    expect(cutOff({ ...open, controls: [open.chat!] })).toEqual([]);
    expect(open.scrollWidth).toBeLessThanOrEqual(size.width);
    if (isPhone(size)) {
      // The sheet over the top leaves the controls below it in reach.
      expect(overlap(open.chat!, open.toolbar)).toBe(false);
    } else {
      expectUsable(open);
      expect(open.toolbar).toEqual(closed.toolbar);
      expect(overlap(open.chat!, open.stage)).toBe(false);
      expect(overlap(open.chat!, open.toolbar)).toBe(false);
      expect(open.stage.bottom - open.stage.top).toBeGreaterThan(200);
    }
    await ada.getByRole('button', { name: 'Hide messages' }).click();
    await ada.getByRole('heading', { name: /^Message / }).waitFor({ state: 'detached' });
  });

  it('drags the self tile on a phone: it snaps to the nearest corner, inside the stage', async () => {
    await resizeTo(ada, SIZES[1]);
    const tile = ada.getByTestId('self-tile');
    const before = (await tile.boundingBox())!;
    // Bottom right to just past the middle on the top left, with the mouse (a finger sends the same pointer events).
    await ada.mouse.move(before.x + before.width / 2, before.y + before.height / 2);
    await ada.mouse.down();
    await ada.mouse.move(120, 200, { steps: 8 });
    await ada.mouse.up();
    await expect.poll(() => tile.getAttribute('class')).toContain('match-self--top-left');
    await ada.waitForTimeout(400);
    const after = (await tile.boundingBox())!;
    expect(after.x).toBeLessThan(before.x);
    expect(after.y).toBeLessThan(before.y);
    const layout = await layoutOf(ada);
    expectUsable(layout);
    await screenshot(ada, 'call-layout-390x844-tile-moved');
  });

  it('goes full screen in one click and back', async () => {
    await resizeTo(ada, SIZES[3]);
    await ada.getByRole('button', { name: 'Full screen' }).click();
    await ada.waitForFunction(() => document.fullscreenElement !== null);
    // Only the call: the header goes too.
    expect(await ada.locator('.shell__header').isVisible()).toBe(false);
    expectUsable(await layoutOf(ada));
    await ada.getByRole('button', { name: 'Exit full screen' }).click();
    await ada.waitForFunction(() => document.fullscreenElement === null);
    expect(await ada.locator('.shell__header').isVisible()).toBe(true);
  });

  it('skips on Esc Esc within a second, not on two Escapes further apart; the partner reads that they skipped', async () => {
    await resizeTo(ada, SIZES[3]);
    await resizeTo(bob, SIZES[0]);
    await ada.keyboard.press('Escape');
    await ada.waitForTimeout(1_300);
    await ada.keyboard.press('Escape');
    await ada.waitForTimeout(1_000);
    expect(await matchStatus(ada)).toBe('connected');
    expect(await bob.getByText('Your partner skipped').count()).toBe(0);
    // Bob reads the chat on his phone: its sheet covers the top of the call.
    await bob.getByRole('button', { name: /^Chat/ }).click();
    await bob.locator('.match-chat').waitFor();

    await ada.keyboard.press('Escape');
    await ada.keyboard.press('Escape');
    await bob.getByText('Your partner skipped').waitFor({ timeout: 5_000 });
    // The call is over: the sheet goes, so it hides neither why nor, next, the feedback card.
    expect(await bob.locator('.match-chat').isVisible()).toBe(false);
    // The notice sits over the video, clear of the tile and of the controls.
    const layout = await layoutOf(bob);
    expect(layout.controls.map((c) => c.name)).toContain('call notice');
    expectUsable(layout);
    await screenshot(bob, 'call-layout-375x667-partner-skipped');
    expect(await matchStatus(ada)).toBe('searching');

    // Then the feedback card, over the search and clear of the controls.
    await bob.getByRole('heading', { name: /How was your call with/ }).waitFor({ timeout: 5_000 });
    const card = await layoutOf(bob);
    const feedback = (await bob.locator('.match-feedback').boundingBox())!;
    const cardBox = { name: 'feedback', left: feedback.x, top: feedback.y, right: feedback.x + feedback.width };
    expect(overlap({ ...cardBox, bottom: feedback.y + feedback.height }, card.toolbar)).toBe(false);
    expectUsable(card);
    await screenshot(bob, 'call-layout-375x667-feedback');
  });
});
