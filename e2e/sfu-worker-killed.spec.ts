import { execFileSync } from 'node:child_process';
import type { SfuLoad } from '@serendip/proto';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { mediasoupWorker } from '../backend/src/test-support/mediasoup-worker.js';
import { adminApi } from './support/admin.js';
import { type AppServer, startAppServer } from './support/app-server.js';
import { screenshot } from './support/artifacts.js';
import { browserUnavailable, launchChromium } from './support/browser.js';
import {
  callPage,
  chatLine,
  matchStatus,
  openChat,
  say,
  seenIn,
  startMatching,
  videoFlowing,
  watchCall,
} from './support/video-call.js';

/** The promise: after the SFU's worker dies, both sides see each other's video again within this long. */
const VIDEO_AGAIN_WITHIN_MS = 5_000;
// The SFU's WebRTC ports: a range of its own, clear of video-relay.spec.ts's and call-resume.spec.ts's.
const SFU_PORTS = { min: 21_500, max: 21_999 };
const ADMIN = { emailAddress: 'worker-kill-admin@example.com', password: 'amber-quarry-lantern-57' };

/** The call this page is in, as the page keeps it for a reload (active-call.ts). */
const activeMatchId = (page: Page) =>
  page.evaluate(
    () => (JSON.parse(localStorage.getItem('serendip.activeCall') ?? 'null') as { matchId?: string } | null)?.matchId,
  );

/** The mediasoup workers that are children of the app's process (never anyone else's). */
function workersOf(server: AppServer): number[] {
  try {
    return execFileSync('pgrep', ['-P', String(server.pid), '-f', 'mediasoup-worker'], { encoding: 'utf8' })
      .trim()
      .split('\n')
      .map(Number);
  } catch {
    return []; // pgrep exits 1 when nothing matches
  }
}

/**
 * From now on the page notes (in `window.__videoAgainAt`, epoch ms) the first moment the partner's video plays a
 * track received over a peer connection made after this call, with frames decoded on it: video through the new room.
 */
async function watchForVideoAgain(page: Page) {
  await page.evaluate(() => {
    const w = window as unknown as { __peers: RTCPeerConnection[]; __videoAgainAt?: number };
    const before = w.__peers.length;
    const timer = setInterval(() => {
      void (async () => {
        const video = document.querySelector<HTMLVideoElement>('[data-testid="partner-video"]');
        const track = (video?.srcObject as MediaStream | null)?.getVideoTracks()[0];
        if (!video || !track || track.readyState !== 'live' || video.paused || video.readyState < 2) return;
        if (video.videoWidth === 0) return;
        for (const peer of w.__peers.slice(before)) {
          const receiver = peer.getReceivers().find((r) => r.track.id === track.id);
          if (!receiver) continue;
          let frames = 0;
          (await receiver.getStats()).forEach((report: { type: string; kind?: string; framesDecoded?: number }) => {
            if (report.type === 'inbound-rtp' && report.kind === 'video') frames += report.framesDecoded ?? 0;
          });
          if (frames > 0 && w.__videoAgainAt === undefined) {
            w.__videoAgainAt = Date.now();
            clearInterval(timer);
          }
        }
      })();
    }, 25);
  });
}

/** When `watchForVideoAgain` saw the partner's video again (epoch ms); waits up to `timeoutMs` for it. */
async function videoAgainAt(page: Page, who: string, timeoutMs: number): Promise<number> {
  try {
    await page.waitForFunction(() => (window as unknown as { __videoAgainAt?: number }).__videoAgainAt !== undefined, {
      timeout: timeoutMs,
      polling: 50,
    });
  } catch {
    throw new Error(`${who} never saw the partner's video again (waited ${timeoutMs} ms after the kill)`);
  }
  return page.evaluate(() => (window as unknown as { __videoAgainAt: number }).__videoAgainAt);
}

/**
 * Reliability: the SFU's mediasoup worker dies (SIGKILL) under a relayed call. The SFU replaces it and reports the
 * room lost, the matchmaker makes the room again and tells both sides, and both join it: the same call, the chat
 * kept, video both ways again within 5 s.
 */
describe.skipIf(browserUnavailable() ?? !mediasoupWorker())('the SFU worker killed under a relayed call', () => {
  let server: AppServer;
  let browser: Browser;
  const contexts: BrowserContext[] = [];

  beforeAll(async () => {
    [server, browser] = await Promise.all([
      startAppServer({
        MEDIA_MODE: 'relay',
        SFU_RTC_MIN_PORT: String(SFU_PORTS.min),
        SFU_RTC_MAX_PORT: String(SFU_PORTS.max),
        ADMIN_EMAIL: ADMIN.emailAddress,
        ADMIN_PASSWORD: ADMIN.password,
      }),
      launchChromium(),
    ]);
  });
  // Each test's people go when it ends: an open page keeps its fake camera busy and slows the next test on two cores.
  afterEach(async () => {
    await Promise.all(contexts.splice(0).map((c) => c.close()));
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  it('both sides rejoin and video flows again within 5 s, in the same call with its chat', async () => {
    const ada = await callPage(browser, server.url, contexts);
    const bob = await callPage(browser, server.url, contexts);
    await Promise.all([startMatching(ada), startMatching(bob)]);
    expect(await videoFlowing(ada)).toBe(true);
    expect(await videoFlowing(bob)).toBe(true);
    await openChat(ada);
    await openChat(bob);
    await say(ada, bob, 'Hello from Ada');
    await say(bob, ada, 'Hi Ada, Bob here');
    const matchId = await activeMatchId(ada);
    expect(matchId).toEqual(expect.any(String));
    expect(await activeMatchId(bob)).toBe(matchId);

    // The worker(s) holding the call's room, as the SFU reports its load (every 5 s), and children of this app.
    const asAdmin = await adminApi(server, ADMIN);
    const serving = async () =>
      ((await (await asAdmin('GET', '/admin/media')).json()) as { nodes: SfuLoad[] }).nodes
        .flatMap((n) => n.workers)
        .filter((w) => w.rooms > 0)
        .map((w) => w.pid);
    await expect.poll(serving, { timeout: 12_000, interval: 250 }).toHaveLength(1);
    const victims = await serving();
    const children = workersOf(server);
    for (const pid of victims) expect(children).toContain(pid);

    await Promise.all([watchCall(ada), watchCall(bob), watchForVideoAgain(ada), watchForVideoAgain(bob)]);
    const killedAt = Date.now();
    for (const pid of victims) process.kill(pid, 'SIGKILL');

    const [adaAgain, bobAgain] = await Promise.all([
      videoAgainAt(ada, 'Ada', 30_000),
      videoAgainAt(bob, 'Bob', 30_000),
    ]);
    const adaAfter = adaAgain - killedAt;
    const bobAfter = bobAgain - killedAt;
    console.log(`SFU worker killed: Ada sees Bob again after ${adaAfter} ms, Bob sees Ada after ${bobAfter} ms`);
    // Soft: a late rejoin still goes on to say whether it was the same call.
    expect.soft(adaAfter, "Ada's wait for Bob's video").toBeLessThanOrEqual(VIDEO_AGAIN_WITHIN_MS);
    expect.soft(bobAfter, "Bob's wait for Ada's video").toBeLessThanOrEqual(VIDEO_AGAIN_WITHIN_MS);
    // And it keeps flowing (bytes keep coming over the new room's connections).
    expect(await videoFlowing(ada)).toBe(true);
    expect(await videoFlowing(bob)).toBe(true);

    // The same call: its id, still connected, never searching or told the partner left; the chat is still there.
    for (const page of [ada, bob]) {
      expect(await activeMatchId(page), 'the call after the kill').toBe(matchId);
      expect((await seenIn(page)).filter((s) => s === 'status:searching' || s.startsWith('notice:'))).toEqual([]);
      expect(await matchStatus(page)).toBe('connected');
      expect(await page.getByText('Connection Failed').count()).toBe(0);
      expect(await page.getByText('left the chat').count()).toBe(0);
      expect(await chatLine(page, 'Hello from Ada').count()).toBe(1);
      expect(await chatLine(page, 'Hi Ada, Bob here').count()).toBe(1);
    }
    // The chat goes on in that call.
    await say(bob, ada, 'Still here');
    await screenshot(ada, 'sfu-worker-killed-video-again-desktop');

    // The SFU replaced the dead worker: as many as before, none of them the killed one.
    await expect.poll(() => workersOf(server).length, { timeout: 5_000 }).toBe(children.length);
    for (const pid of victims) expect(workersOf(server)).not.toContain(pid);
    for (const page of [ada, bob]) await page.getByRole('button', { name: 'Leave Matching' }).click();
  }, 180_000);
});
