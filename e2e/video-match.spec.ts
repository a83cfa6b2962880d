import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signedInAccount } from './support/accounts.js';
import { type AppServer, startAppServer } from './support/app-server.js';
import { screenshot } from './support/artifacts.js';
import { browserUnavailable, launchChromium, VIEWPORTS } from './support/browser.js';
import { type Coturn, coturnUnavailable, startCoturn } from './support/coturn.js';

/**
 * Issue 7: two (and three) real Chromium users with fake cameras, matched through the app, talking over a
 * real peer connection with a local coturn handing out TURN relays.
 */
describe.skipIf(browserUnavailable() ?? coturnUnavailable())('video matching in browsers', () => {
  let server: AppServer;
  let coturn: Coturn;
  let browser: Browser;
  const contexts: BrowserContext[] = [];

  beforeAll(async () => {
    coturn = await startCoturn();
    [server, browser] = await Promise.all([startAppServer(coturn.env), launchChromium()]);
  });
  afterAll(async () => {
    await Promise.all(contexts.map((c) => c.close()));
    await browser?.close();
    await server?.stop();
    await coturn?.stop();
  });

  /** A signed-in user on the video-match page, with their peer connections kept where the test can read them. */
  async function user(options: { relayOnly?: boolean; viewport?: { width: number; height: number } } = {}) {
    const context = await browser.newContext({ viewport: options.viewport ?? VIEWPORTS.desktop });
    contexts.push(context);
    await context.grantPermissions(['camera', 'microphone'], { origin: server.url });
    await signedInAccount(server.url, context);
    await context.addInitScript(
      ({ relayOnly }) => {
        window.localStorage.setItem('serendip.cookieConsent', 'true');
        const Native = window.RTCPeerConnection;
        const kept: RTCPeerConnection[] = [];
        (window as unknown as { __peers: RTCPeerConnection[] }).__peers = kept;
        window.RTCPeerConnection = class extends Native {
          constructor(config?: RTCConfiguration) {
            // The relay test takes away every path but coturn's, as a strict NAT would.
            super(relayOnly ? { ...config, iceTransportPolicy: 'relay' } : config);
            kept.push(this);
          }
        } as typeof RTCPeerConnection;
      },
      { relayOnly: options.relayOnly ?? false },
    );
    const page = await context.newPage();
    page.on('pageerror', (error) => console.error(`page error: ${error.message}`));
    await page.goto(`${server.url}/video-match`);
    await page.getByRole('heading', { name: 'Select Gender' }).waitFor();
    return page;
  }

  /** Through the wizard with no preferences, to 'Start Matching'. */
  async function startMatching(page: Page): Promise<number> {
    for (const title of ['Select Country', 'Select Age Range', 'Your Preferences']) {
      await page.getByRole('button', { name: 'Next' }).click();
      await page.getByRole('heading', { name: title }).waitFor();
    }
    const startedAt = Date.now();
    await page.getByRole('button', { name: 'Start Matching' }).click();
    return startedAt;
  }

  const status = (page: Page) => page.locator('[data-match-status]').getAttribute('data-match-status');

  /** Resolves when the partner's video plays with real frames; returns when that was. */
  async function partnerVideoPlaying(page: Page, timeoutMs = 20_000): Promise<number> {
    await page.waitForFunction(
      () => {
        const video = document.querySelector<HTMLVideoElement>('[data-testid="partner-video"]');
        return !!video && video.videoWidth > 0 && !video.paused && video.readyState >= 2;
      },
      undefined,
      { timeout: timeoutMs, polling: 20 },
    );
    return Date.now();
  }

  async function inboundVideoBytes(page: Page): Promise<number> {
    return page.evaluate(async () => {
      const peers = (window as unknown as { __peers: RTCPeerConnection[] }).__peers;
      let bytes = 0;
      for (const peer of peers.filter((p) => p.connectionState === 'connected')) {
        (await peer.getStats()).forEach((report: { type: string; kind?: string; bytesReceived?: number }) => {
          if (report.type === 'inbound-rtp' && report.kind === 'video') bytes += report.bytesReceived ?? 0;
        });
      }
      return bytes;
    });
  }

  /** The kind of local candidate of the live connection's selected pair: 'host', 'srflx' or 'relay'. */
  async function selectedCandidateType(page: Page): Promise<string | undefined> {
    return page.evaluate(async () => {
      const peers = (window as unknown as { __peers: RTCPeerConnection[] }).__peers;
      const peer = peers.find((p) => p.connectionState === 'connected');
      if (!peer) return undefined;
      const stats = (await peer.getStats()) as unknown as Map<string, Record<string, string | undefined>>;
      for (const report of stats.values()) {
        if (report.type !== 'transport' || !report.selectedCandidatePairId) continue;
        const pair = stats.get(report.selectedCandidatePairId);
        return pair?.localCandidateId ? stats.get(pair.localCandidateId)?.candidateType : undefined;
      }
      return undefined;
    });
  }

  async function expectVideoFlowing(page: Page) {
    await partnerVideoPlaying(page);
    const before = await inboundVideoBytes(page);
    await page.waitForTimeout(1_000);
    expect(await inboundVideoBytes(page)).toBeGreaterThan(before);
  }

  async function chat(from: Page, to: Page, text: string) {
    for (const page of [from, to]) {
      if (!(await page.getByPlaceholder('Send a message...').isVisible())) {
        await page.getByRole('button', { name: 'Chat' }).click();
      }
    }
    await from.getByPlaceholder('Send a message...').fill(text);
    await from.getByPlaceholder('Send a message...').press('Enter');
    await to.getByText(text).waitFor();
  }

  it('matches two users who see and hear each other, chat both ways, skip, and meet a third who leaves', async () => {
    const ada = await user();
    const bob = await user({ viewport: VIEWPORTS.phone });
    await Promise.all([startMatching(ada), startMatching(bob)]);
    await Promise.all([expectVideoFlowing(ada), expectVideoFlowing(bob)]);
    expect(await status(ada)).toBe('connected');
    await screenshot(ada, 'video-match-connected-desktop');
    await screenshot(bob, 'video-match-connected-phone');

    await chat(ada, bob, 'Hello from Ada');
    await chat(bob, ada, 'Hi Ada, Bob here');
    // On the phone the open chat is on screen, input included, and Skip stays within reach below it.
    const input = await bob.getByPlaceholder('Send a message...').boundingBox();
    expect(input!.y + input!.height).toBeLessThanOrEqual(VIEWPORTS.phone.height);
    await screenshot(bob, 'video-match-chat-phone');

    // Bob skips: both search again, and a skip keeps them apart.
    await bob.getByRole('button', { name: 'Skip Conversation' }).click();
    await bob.waitForFunction(
      () => document.querySelector('[data-match-status]')?.getAttribute('data-match-status') === 'searching',
    );
    await ada.waitForFunction(
      () => document.querySelector('[data-match-status]')?.getAttribute('data-match-status') === 'searching',
      undefined,
      { timeout: 15_000 },
    );

    // The one who skipped is asked about the call, over the search for the next one.
    await bob.getByRole('heading', { name: /How was your call with/ }).waitFor();
    await screenshot(bob, 'video-match-feedback-phone');
    await bob.getByRole('radio', { name: '5 Excellent' }).click();
    await bob.getByRole('button', { name: 'Send feedback' }).click();
    await bob.getByText('We appreciate it!').waitFor();

    const cleo = await user();
    await startMatching(cleo);
    await expectVideoFlowing(cleo);
    const cleosPartner = (await status(ada)) === 'connected' ? ada : bob;
    await partnerVideoPlaying(cleosPartner);

    await cleo.getByRole('button', { name: 'Leave Matching' }).click();
    await cleo.getByRole('heading', { name: 'Select Gender' }).waitFor();
    await cleosPartner.waitForFunction(
      () => document.querySelector('[data-match-status]')?.getAttribute('data-match-status') === 'searching',
      undefined,
      { timeout: 15_000 },
    );
  }, 180_000);

  it('connects the same call with ICE forced through coturn', async () => {
    const ada = await user({ relayOnly: true });
    const bob = await user({ relayOnly: true });
    await Promise.all([startMatching(ada), startMatching(bob)]);
    await Promise.all([expectVideoFlowing(ada), expectVideoFlowing(bob)]);
    expect(await selectedCandidateType(ada)).toBe('relay');
    expect(await selectedCandidateType(bob)).toBe('relay');
    for (const page of [ada, bob]) await page.getByRole('button', { name: 'Leave Matching' }).click();
  }, 120_000);

  it("measures the time from both users' 'Start Matching' to the partner's video playing (median of 5)", async () => {
    const ada = await user();
    const bob = await user();
    const times: number[] = [];
    for (let run = 0; run < 5; run++) {
      const [adaStart, bobStart] = await Promise.all([startMatching(ada), startMatching(bob)]);
      const [adaPlays, bobPlays] = await Promise.all([partnerVideoPlaying(ada), partnerVideoPlaying(bob)]);
      times.push(Math.max(adaPlays, bobPlays) - Math.max(adaStart, bobStart));
      for (const page of [ada, bob]) {
        await page.getByRole('button', { name: 'Leave Matching' }).click();
        await page.getByRole('heading', { name: 'Select Gender' }).waitFor();
      }
    }
    const median = [...times].sort((a, b) => a - b)[2]!;
    console.log(`time from Start Matching to partner video playing: median ${median} ms of ${JSON.stringify(times)}`);
    // Goal (issue 7): under 1.5 s on this machine; the bound here leaves room for a loaded CI machine.
    expect(median).toBeLessThan(8_000);
  }, 180_000);
});
