import type { Browser, BrowserContext, Page } from 'playwright-core';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signedInAccount } from './support/accounts.js';
import { type AppServer, startAppServer } from './support/app-server.js';
import { screenshot } from './support/artifacts.js';
import { browserUnavailable, launchChromium, VIEWPORTS } from './support/browser.js';

/** A noisy photo-like JPEG of about `megabytes` MB (noise does not compress). */
async function photoOfAbout(megabytes: number): Promise<Buffer> {
  const side = Math.round(Math.sqrt(megabytes) * 1150);
  return sharp({
    create: {
      width: side,
      height: side,
      channels: 3,
      background: '#808080',
      noise: { type: 'gaussian', mean: 128, sigma: 60 },
    },
  })
    .jpeg({ quality: 92 })
    .toBuffer();
}

/** The highest progress the upload bar has shown since the page loaded (it goes away when the upload ends). */
const RECORD_PROGRESS = () => {
  const seen = { max: 0, values: [] as number[] };
  (window as unknown as { uploadProgress: typeof seen }).uploadProgress = seen;
  new MutationObserver(() => {
    const bar = document.querySelector('[role="progressbar"][aria-label="Picture upload"]');
    const value = Number(bar?.getAttribute('aria-valuenow') ?? NaN);
    if (!Number.isNaN(value)) {
      seen.max = Math.max(seen.max, value);
      seen.values.push(value);
    }
  }).observe(document, { subtree: true, childList: true, attributes: true, attributeFilter: ['aria-valuenow'] });
};

async function uploadProgress(page: Page): Promise<{ max: number; values: number[] }> {
  return page.evaluate(
    () => (window as unknown as { uploadProgress: { max: number; values: number[] } }).uploadProgress,
  );
}

async function avatarSrc(page: Page): Promise<string | null> {
  const img = page.locator('.avatar-uploader img');
  return (await img.count()) ? img.getAttribute('src') : null;
}

/** The profile settings screen (spec 2): edit and see it kept, and a resumable picture upload. */
describe.skipIf(browserUnavailable())('profile settings in a browser', () => {
  let server: AppServer;
  let browser: Browser;

  beforeAll(async () => {
    [server, browser] = await Promise.all([startAppServer(), launchChromium()]);
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  for (const [device, viewport] of Object.entries(VIEWPORTS)) {
    describe(`on a ${device}`, () => {
      let context: BrowserContext;
      let page: Page;
      beforeAll(async () => {
        context = await browser.newContext({ viewport });
        await signedInAccount(server.url, context);
        await context.addInitScript(RECORD_PROGRESS);
        page = await context.newPage();
      });
      afterAll(async () => {
        await context?.close();
      });

      it('edits the profile, shows it saved, and keeps it after a reload', async () => {
        await page.goto(`${server.url}/settings/profile`);
        await page.getByPlaceholder('Enter first name').fill('Ada');
        await page.getByPlaceholder('Enter last name').fill('Lovelace');
        await page.getByPlaceholder('1 (702) 123-4567').fill('7025550123');
        await page.getByPlaceholder('Enter your bio').fill('Poetical science.');
        // The read-only block: what cannot be changed here, unknown places said so.
        await page.getByText(/Your age is \d+ years old\./).waitFor();
        expect(await page.getByText('Unknown').count()).toBeGreaterThan(0);

        await page.getByRole('button', { name: 'Save Changes' }).click();
        await page.getByRole('button', { name: 'Changes Saved Successfully' }).waitFor();
        await screenshot(page, `profile-saved-${device}`);
        // Back to idle after 3 s (spec 4).
        await page.getByRole('button', { name: 'Save Changes' }).waitFor({ timeout: 10_000 });

        await page.reload();
        await page.getByPlaceholder('Enter first name').waitFor();
        expect(await page.getByPlaceholder('Enter first name').inputValue()).toBe('Ada');
        expect(await page.getByPlaceholder('Enter last name').inputValue()).toBe('Lovelace');
        expect((await page.getByPlaceholder('1 (702) 123-4567').inputValue()).replace(/\D/g, '')).toBe('7025550123');
        expect(await page.getByPlaceholder('Enter your bio').inputValue()).toBe('Poetical science.');
      });

      it('uploads a 3 MB photo with progress to 100 %, paused and resumed on a slow line, and shows the new avatar', async () => {
        await page.goto(`${server.url}/settings/profile`);
        await page.getByRole('button', { name: 'Upload picture' }).waitFor();
        const before = await avatarSrc(page);
        const photo = await photoOfAbout(3);
        expect(photo.length).toBeGreaterThan(2.5 * 1024 * 1024);

        // A slow upload line, so the upload can be caught running.
        const cdp = await context.newCDPSession(page);
        await cdp.send('Network.enable');
        await cdp.send('Network.emulateNetworkConditions', {
          offline: false,
          latency: 20,
          downloadThroughput: -1,
          uploadThroughput: 600 * 1024,
        });
        await page.getByLabel('Profile picture file').setInputFiles({
          name: 'holiday.jpg',
          mimeType: 'image/jpeg',
          buffer: photo,
        });
        await page.waitForFunction(() => {
          const bar = document.querySelector('[role="progressbar"][aria-label="Picture upload"]');
          return Number(bar?.getAttribute('aria-valuenow')) > 0;
        });
        await page.getByRole('button', { name: 'Pause' }).click();
        await page.getByText('Upload paused.').waitFor();
        expect(await page.getByRole('button', { name: 'Resume' }).isEnabled()).toBe(true);
        expect(await page.getByRole('button', { name: 'Pause' }).isEnabled()).toBe(false);
        const paused = await page.getByRole('progressbar', { name: 'Picture upload' }).getAttribute('aria-valuenow');
        await page.waitForTimeout(1_000);
        expect(await page.getByRole('progressbar', { name: 'Picture upload' }).getAttribute('aria-valuenow')).toBe(
          paused,
        );
        await screenshot(page, `avatar-paused-${device}`);

        await page.getByRole('button', { name: 'Resume' }).click();
        await page.getByText('Profile picture updated successfully').waitFor({ timeout: 60_000 });
        await cdp.send('Network.emulateNetworkConditions', {
          offline: false,
          latency: 0,
          downloadThroughput: -1,
          uploadThroughput: -1,
        });
        const progress = await uploadProgress(page);
        expect(progress.max).toBe(100);
        expect(Number(paused)).toBeLessThan(100);

        const after = await avatarSrc(page);
        expect(after).toMatch(/^\/api\/avatars\/[\w-]+\.webp$/);
        expect(after).not.toBe(before);
        const avatar = await fetch(`${server.url}${after}`);
        expect(avatar.headers.get('content-type')).toBe('image/webp');
        const meta = await sharp(Buffer.from(await avatar.arrayBuffer())).metadata();
        expect([meta.width, meta.height, meta.exif]).toEqual([512, 512, undefined]);
        await screenshot(page, `avatar-uploaded-${device}`);
      });

      it('takes a PNG named .jpg, and refuses a text file named .jpg with the spec message', async () => {
        await page.goto(`${server.url}/settings/profile`);
        await page.getByRole('button', { name: 'Upload picture' }).waitFor();
        const png = await sharp({ create: { width: 300, height: 200, channels: 4, background: '#3a7' } })
          .png()
          .toBuffer();
        await page
          .getByLabel('Profile picture file')
          .setInputFiles({ name: 'me.jpg', mimeType: 'image/jpeg', buffer: png });
        await page.getByText('Profile picture updated successfully').last().waitFor();
        await page.getByRole('button', { name: 'Upload picture' }).waitFor();
        const withPng = await avatarSrc(page);
        expect(withPng).toMatch(/^\/api\/avatars\//);

        await page.getByLabel('Profile picture file').setInputFiles({
          name: 'notes.jpg',
          mimeType: 'image/jpeg',
          buffer: Buffer.from('these are my notes, not a picture\n'.repeat(40)),
        });
        await page.getByText('Failed to upload image').waitFor();
        await page.getByRole('button', { name: 'Upload picture' }).waitFor();
        expect(await avatarSrc(page)).toBe(withPng);
      });
    });
  }
});
