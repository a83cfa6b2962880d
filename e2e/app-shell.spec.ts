import { mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AppServer, startAppServer } from './support/app-server.js';
import { browserUnavailable, launchChromium, VIEWPORTS } from './support/browser.js';

const NOT_FOUND_TEXT = "Oops! The page you're looking for doesn't exist or may have been moved.";
const screenshots = fileURLToPath(new URL('../test-results/screenshots/', import.meta.url));

describe.skipIf(browserUnavailable())('the app in a browser', () => {
  let server: AppServer;
  let browser: Browser;

  beforeAll(async () => {
    mkdirSync(screenshots, { recursive: true });
    [server, browser] = await Promise.all([startAppServer(), launchChromium()]);
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  for (const [device, viewport] of Object.entries(VIEWPORTS)) {
    describe(`on a ${device}`, () => {
      it('opens the home page: the loading overlay goes, the app says the server is operational', async () => {
        const page = await browser.newPage({ viewport });
        const errors: string[] = [];
        page.on('pageerror', (e) => errors.push(e.message));
        page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));

        await page.goto(`${server.url}/`);
        await page.getByRole('heading', { level: 1 }).waitFor();
        await page.getByText('Server Operational').waitFor();
        expect(await page.getByText('INITIALIZING').count()).toBe(0);
        expect(await page.title()).toBe('Serendip');
        await page.screenshot({ path: `${screenshots}home-${device}.png`, fullPage: true });
        expect(errors).toEqual([]);
        await page.close();
      });

      it('shows the 404 page for an unknown path and Return Back leads home', async () => {
        const page = await browser.newPage({ viewport });
        const res = await page.goto(`${server.url}/no-such-page`);
        expect(res?.status()).toBe(200);
        await page.getByText(NOT_FOUND_TEXT).waitFor();
        const back = page.getByRole('link', { name: 'Return Back' });
        expect(await back.getAttribute('href')).toBe('/');
        await page.screenshot({ path: `${screenshots}not-found-${device}.png`, fullPage: true });

        await back.click();
        await page.waitForURL(`${server.url}/`);
        await page.getByRole('heading', { level: 1 }).waitFor();
        await page.close();
      });
    });
  }
});
