import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { mediasoupWorker } from '../backend/src/test-support/mediasoup-worker.js';
import { adminApi } from './support/admin.js';
import { type AppServer, startAppServer } from './support/app-server.js';
import { screenshot } from './support/artifacts.js';
import { browserUnavailable, launchChromium } from './support/browser.js';
import {
  callPage,
  type CallPageOptions,
  matchStatus,
  partnerVideoPlaying,
  selectedPairs,
  startMatching,
  videoFlowing,
} from './support/video-call.js';

// The SFU's WebRTC ports: a range no browser picks for its own sockets, so a selected pair ending there is the SFU.
const SFU_PORTS = { min: 20_000, max: 20_999 };
const ADMIN = { emailAddress: 'relay-admin@example.com', password: 'violet-harbour-lantern-42' };

/**
 * In real browsers: calls relayed through the app's mediasoup SFU (relay mode), a call that cannot go peer to
 * peer moved there (auto mode), and a snapshot the server takes of a user's video.
 */
describe.skipIf(browserUnavailable() ?? !mediasoupWorker())('calls relayed through the SFU, in browsers', () => {
  let relay: AppServer;
  let auto: AppServer;
  let browser: Browser;
  const contexts: BrowserContext[] = [];

  beforeAll(async () => {
    const sfu = {
      SFU_RTC_MIN_PORT: String(SFU_PORTS.min),
      SFU_RTC_MAX_PORT: String(SFU_PORTS.max),
      ADMIN_EMAIL: ADMIN.emailAddress,
      ADMIN_PASSWORD: ADMIN.password,
    };
    [relay, auto, browser] = await Promise.all([
      startAppServer({ ...sfu, MEDIA_MODE: 'relay' }),
      // Its own half of the range: two SFUs on one machine must not fight over ports.
      startAppServer({ ...sfu, MEDIA_MODE: 'auto', SFU_RTC_MIN_PORT: String(SFU_PORTS.min + 500) }),
      launchChromium(),
    ]);
  });
  // Each test's people go when it ends: an open page keeps its fake camera busy and slows the next test on two cores.
  afterEach(async () => {
    await Promise.all(contexts.splice(0).map((c) => c.close()));
  });
  afterAll(async () => {
    await browser?.close();
    await Promise.all([relay?.stop(), auto?.stop()]);
  });

  const user = (server: AppServer, options: CallPageOptions = {}) => callPage(browser, server.url, contexts, options);

  /** Every connected pair of the page ends at the SFU, never at the partner. */
  async function expectThroughSfu(page: Page) {
    const pairs = await selectedPairs(page);
    expect(pairs.length).toBeGreaterThan(0);
    for (const pair of pairs) {
      expect(pair.remoteAddress).toBe('127.0.0.1');
      expect(pair.remotePort).toBeGreaterThanOrEqual(SFU_PORTS.min);
      expect(pair.remotePort).toBeLessThanOrEqual(SFU_PORTS.max);
    }
  }

  const admin = (server: AppServer) => adminApi(server, ADMIN);

  async function userIdOf(page: Page): Promise<string> {
    return page.evaluate(async () => ((await (await fetch('/api/auth/user-info')).json()) as { _id: string })._id);
  }

  it('relay mode: the call connects through the SFU both ways, a snapshot is evidence, and skip and leave close the room', async () => {
    const ada = await user(relay);
    const bob = await user(relay);
    await Promise.all([startMatching(ada), startMatching(bob)]);
    expect(await videoFlowing(ada)).toBe(true);
    expect(await videoFlowing(bob)).toBe(true);
    expect(await matchStatus(ada)).toBe('connected');
    await expectThroughSfu(ada);
    await expectThroughSfu(bob);
    await screenshot(ada, 'video-relay-connected-desktop');

    // The server's own frame of Bob's video: a JPEG of the size Ada sees, whose bytes hash to the recorded SHA-256.
    const asAdmin = await admin(relay);
    const reason = 'Reported for showing a weapon on camera';
    const taken = await asAdmin('POST', '/admin/snapshots', { userId: await userIdOf(bob), reason });
    expect(taken.status).toBe(201);
    const record = (await taken.json()) as { snapshotId: string; sha256: string; width: number; height: number };
    const image = await asAdmin('GET', `/admin/snapshots/${record.snapshotId}`);
    expect(image.headers.get('content-type')).toBe('image/jpeg');
    const jpeg = Buffer.from(await image.arrayBuffer());
    expect(createHash('sha256').update(jpeg).digest('hex')).toBe(record.sha256);
    const decoded = execFileSync(
      'ffprobe',
      ['-v', 'error', '-select_streams', 'v:0', '-show_entries', 'stream=width,height', '-of', 'csv=p=0', '-'],
      { input: jpeg, encoding: 'utf8' },
    ).trim();
    const seen = await ada.evaluate(() => {
      const video = document.querySelector<HTMLVideoElement>('[data-testid="partner-video"]')!;
      return `${video.videoWidth},${video.videoHeight}`;
    });
    expect(decoded).toBe(`${record.width},${record.height}`);
    expect(decoded).toBe(seen);
    // Someone not in a relayed call: a clear reason, no file.
    const nobody = await asAdmin('POST', '/admin/snapshots', {
      userId: '00000000-0000-4000-8000-000000000000',
      reason,
    });
    expect(await nobody.json()).toMatchObject({ statusCode: 400, message: ['That user is not in a relayed call.'] });

    const roomsOpen = async () =>
      ((await (await asAdmin('GET', '/admin/media')).json()) as { nodes: { workers: { rooms: number }[] }[] }).nodes
        .flatMap((n) => n.workers)
        .reduce((sum, w) => sum + w.rooms, 0);
    await expect.poll(roomsOpen, { timeout: 12_000, interval: 500 }).toBe(1);

    // A skip ends the call and closes its router; the two are not paired again (the skip keeps them apart).
    await bob.getByRole('button', { name: 'Skip Conversation' }).click();
    await ada.waitForFunction(
      () => document.querySelector('[data-match-status]')?.getAttribute('data-match-status') === 'searching',
      undefined,
      { timeout: 15_000 },
    );
    await expect.poll(roomsOpen, { timeout: 12_000, interval: 500 }).toBe(0);

    // A third user meets Ada or Bob (both search again) through the SFU; leaving closes that room too.
    const cleo = await user(relay);
    await startMatching(cleo);
    expect(await videoFlowing(cleo)).toBe(true);
    const cleosPartner = (await matchStatus(ada)) === 'connected' ? ada : bob;
    await partnerVideoPlaying(cleosPartner);
    await expectThroughSfu(cleo);
    await expect.poll(roomsOpen, { timeout: 12_000, interval: 500 }).toBe(1);
    await cleo.getByRole('button', { name: 'Leave Matching' }).click();
    await cleo.getByRole('heading', { name: 'Your Preferences' }).waitFor();
    await expect.poll(roomsOpen, { timeout: 12_000, interval: 500 }).toBe(0);
    for (const page of [ada, bob]) await page.getByRole('button', { name: 'Leave Matching' }).click();
  }, 180_000);

  it('auto mode: a call that cannot connect peer to peer moves to the SFU and connects instead of skipping', async () => {
    const ada = await user(auto, { blockPeerToPeer: true });
    const bob = await user(auto, { blockPeerToPeer: true });
    await Promise.all([startMatching(ada), startMatching(bob)]);
    expect(await videoFlowing(ada)).toBe(true);
    expect(await videoFlowing(bob)).toBe(true);
    await expectThroughSfu(ada);
    await expectThroughSfu(bob);
    expect(await matchStatus(ada)).toBe('connected');
    // The call moved; it was not given up ('Connection Failed. Trying another match...' never showed).
    expect(await ada.getByText('Connection Failed').count()).toBe(0);
    await screenshot(bob, 'video-relay-fallback-desktop');
    for (const page of [ada, bob]) await page.getByRole('button', { name: 'Leave Matching' }).click();
  }, 180_000);
});
