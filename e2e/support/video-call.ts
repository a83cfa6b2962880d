import type { Browser, BrowserContext, Page } from 'playwright-core';
import { signedInAccount } from './accounts.js';
import { VIEWPORTS } from './browser.js';

export interface CallPageOptions {
  /** Only coturn's relay candidates, as behind a strict NAT. */
  relayOnly?: boolean;
  /** No remote ICE candidate is ever added: peer to peer cannot connect (auto mode then falls back to the SFU). */
  blockPeerToPeer?: boolean;
  viewport?: { width: number; height: number };
  /** The account never followed its sign-up link (matching refuses it). */
  unconfirmed?: boolean;
}

/**
 * A signed-in user on the video-match page, in a context of their own. Every RTCPeerConnection the page makes
 * (peer to peer, or mediasoup-client's for the SFU) is kept in `window.__peers` for the test to read.
 */
export async function callPage(
  browser: Browser,
  baseUrl: string,
  contexts: BrowserContext[],
  options: CallPageOptions = {},
): Promise<Page> {
  const context = await browser.newContext({ viewport: options.viewport ?? VIEWPORTS.desktop });
  contexts.push(context);
  await context.grantPermissions(['camera', 'microphone'], { origin: baseUrl });
  await signedInAccount(baseUrl, context, { confirmed: !options.unconfirmed });
  await context.addInitScript(
    ({ relayOnly, blockPeerToPeer }) => {
      window.localStorage.setItem('serendip.cookieConsent', 'true');
      const Native = window.RTCPeerConnection;
      const kept: RTCPeerConnection[] = [];
      (window as unknown as { __peers: RTCPeerConnection[] }).__peers = kept;
      window.RTCPeerConnection = class extends Native {
        constructor(config?: RTCConfiguration) {
          super(relayOnly ? { ...config, iceTransportPolicy: 'relay' } : config);
          kept.push(this);
        }
      } as typeof RTCPeerConnection;
      // Trickled candidates are how peer to peer learns the partner's addresses; the SFU's come in its SDP.
      if (blockPeerToPeer) Native.prototype.addIceCandidate = () => Promise.resolve();
    },
    { relayOnly: options.relayOnly ?? false, blockPeerToPeer: options.blockPeerToPeer ?? false },
  );
  const page = await context.newPage();
  page.on('pageerror', (error) => console.error(`page error: ${error.message}`));
  await page.goto(`${baseUrl}/video-match`);
  await page.getByRole('heading', { name: 'Select Gender' }).waitFor();
  return page;
}

/**
 * 'Start Matching': through the wizard with no preferences the first time, straight from the ready screen after that
 * (the account's saved preferences); returns when it was clicked.
 */
export async function startMatching(page: Page): Promise<number> {
  const start = page.getByRole('button', { name: 'Start Matching' });
  if (!(await start.isVisible())) {
    for (const title of ['Select Country', 'Select Age Range', 'Your Preferences']) {
      await page.getByRole('button', { name: 'Next' }).click();
      await page.getByRole('heading', { name: title }).waitFor();
    }
  }
  const startedAt = Date.now();
  await start.click();
  return startedAt;
}

export const matchStatus = (page: Page) => page.locator('[data-match-status]').getAttribute('data-match-status');

/** Resolves when the partner's video plays with real frames; returns when that was. */
export async function partnerVideoPlaying(page: Page, timeoutMs = 30_000): Promise<number> {
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

/** Video bytes received so far over the page's connected peer connections. */
export async function inboundVideoBytes(page: Page): Promise<number> {
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

/** The partner's video plays and its bytes keep coming (within a few seconds: a loaded machine stutters). */
export async function videoFlowing(page: Page): Promise<boolean> {
  await partnerVideoPlaying(page);
  const before = await inboundVideoBytes(page);
  for (let waited = 0; waited < 5_000; waited += 250) {
    await page.waitForTimeout(250);
    if ((await inboundVideoBytes(page)) > before) return true;
  }
  return false;
}

/**
 * The selected ICE candidate pairs of the page's connected peer connections: the local candidate's type
 * ('host', 'srflx', 'relay') and the remote end's address and port.
 */
export async function selectedPairs(
  page: Page,
): Promise<{ localType?: string; remoteAddress?: string; remotePort?: number }[]> {
  return page.evaluate(async () => {
    const peers = (window as unknown as { __peers: RTCPeerConnection[] }).__peers;
    const pairs: { localType?: string; remoteAddress?: string; remotePort?: number }[] = [];
    for (const peer of peers.filter((p) => p.connectionState === 'connected')) {
      const stats = (await peer.getStats()) as unknown as Map<string, Record<string, string | number | undefined>>;
      for (const report of stats.values()) {
        if (report.type !== 'transport' || !report.selectedCandidatePairId) continue;
        const pair = stats.get(String(report.selectedCandidatePairId));
        const local = pair?.localCandidateId ? stats.get(String(pair.localCandidateId)) : undefined;
        const remote = pair?.remoteCandidateId ? stats.get(String(pair.remoteCandidateId)) : undefined;
        pairs.push({
          localType: local?.candidateType as string | undefined,
          remoteAddress: (remote?.address ?? remote?.ip) as string | undefined,
          remotePort: remote?.port as number | undefined,
        });
      }
    }
    return pairs;
  });
}

/** Opens the chat panel of the call. */
export const openChat = (page: Page) => page.getByRole('button', { name: /^Chat/ }).click();

/** The page's chat lines that contain `text`. */
export const chatLine = (page: Page, text: string) => page.locator('.match-chat__line', { hasText: text });

/** `from` writes `text` in the chat; returns once `to` shows it. */
export async function say(from: Page, to: Page, text: string) {
  await from.getByPlaceholder('Send a message...').fill(text);
  await from.getByPlaceholder('Send a message...').press('Enter');
  await chatLine(to, text).waitFor();
}

/**
 * Keeps, in the page, every call status and every notice over the video it shows from now on: the side that stays
 * must see 'Reconnecting...' and never 'Connection lost', nor a search for someone new.
 */
export async function watchCall(page: Page) {
  await page.evaluate(() => {
    const seen = new Set<string>();
    (window as unknown as { __seen: Set<string> }).__seen = seen;
    const look = () => {
      const status = document.querySelector('[data-match-status]')?.getAttribute('data-match-status');
      if (status) seen.add(`status:${status}`);
      const notice = document.querySelector('.match-call-notice')?.textContent;
      if (notice) seen.add(`notice:${notice}`);
    };
    new MutationObserver(look).observe(document.body, {
      subtree: true,
      childList: true,
      characterData: true,
      attributes: true,
    });
    look();
  });
}

/** What `watchCall` has seen on the page, sorted ('status:connected', 'notice:Reconnecting...'). */
export const seenIn = (page: Page) =>
  page.evaluate(() => [...(window as unknown as { __seen: Set<string> }).__seen].sort());
