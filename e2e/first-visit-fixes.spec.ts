import type { Browser, Locator } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signedInAccount } from './support/accounts.js';
import { type AppServer, startAppServer } from './support/app-server.js';
import { screenshot } from './support/artifacts.js';
import { browserUnavailable, launchChromium, VIEWPORTS } from './support/browser.js';

/** The phones a first visit was seen on, where the cookie banner hid sign-up's Create button. */
const SMALL_PHONES = [
  { width: 375, height: 667 },
  { width: 390, height: 844 },
] as const;

type Box = { x: number; y: number; width: number; height: number };
const intersects = (a: Box, b: Box) =>
  a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;

async function box(locator: Locator): Promise<Box> {
  const found = await locator.boundingBox();
  if (!found) throw new Error(`${locator.toString()} has no box`);
  return found;
}

/** Whether a tap at the element's centre reaches it (not the banner over it). */
const reachable = (locator: Locator) =>
  locator.evaluate((element) => {
    const r = element.getBoundingClientRect();
    const hit = document.elementFromPoint(r.x + r.width / 2, r.y + r.height / 2);
    return hit === element || element.contains(hit);
  });

describe.skipIf(browserUnavailable())('first-visit fixes in a browser', () => {
  let server: AppServer;
  let browser: Browser;

  beforeAll(async () => {
    [server, browser] = await Promise.all([startAppServer(), launchChromium()]);
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  for (const viewport of SMALL_PHONES) {
    it(`at ${viewport.width}x${viewport.height}, the cookie banner of a first visit leaves sign-up's Create button uncovered and clickable`, async () => {
      const context = await browser.newContext({ viewport });
      const page = await context.newPage();
      await page.goto(`${server.url}/auth/signup`);
      const banner = page.getByRole('region', { name: 'Cookie notice' });
      const create = page.getByRole('button', { name: 'Create account' });
      await create.waitFor();
      await banner.waitFor();

      // Each control as the browser brings it into view from the top of the page (a tap, Tab, or the keyboard's
      // Next does the same): it must stop above the banner, not under it.
      const controls = [
        page.getByLabel('E-mail address'),
        page.getByLabel('Password', { exact: true }),
        page.getByLabel('Confirm password'),
        create,
      ];
      for (const control of controls) {
        await page.evaluate(() => window.scrollTo(0, 0));
        await control.evaluate((element) => element.scrollIntoView({ block: 'nearest' }));
        const [controlBox, notice] = await Promise.all([box(control), box(banner)]);
        expect(intersects(controlBox, notice), await control.evaluate((e) => e.outerHTML.slice(0, 60))).toBe(false);
        expect(controlBox.y + controlBox.height).toBeLessThanOrEqual(viewport.height);
        expect(await reachable(control)).toBe(true);
      }
      await screenshot(page, `signup-cookie-banner-${viewport.width}x${viewport.height}`);
      // And a real click on Create reaches the form (nothing typed: it answers with the field errors).
      await create.click({ timeout: 3000 });
      await page.locator('.field__errors').first().waitFor({ timeout: 3000 });
      expect(await banner.isVisible()).toBe(true);
      await context.close();
    });
  }

  it('ticks "Not a common password" in the browser once the typed password is off the list', async () => {
    const context = await browser.newContext({ viewport: VIEWPORTS.desktop });
    const page = await context.newPage();
    await page.goto(`${server.url}/auth/signup`);
    const rule = page.getByRole('list', { name: 'Password rules' }).locator('li', { hasText: 'Not a common password' });
    await page.getByLabel('Password', { exact: true }).fill('password1');
    await page.waitForTimeout(500);
    expect(await rule.getAttribute('class')).not.toContain('--met');
    await page.getByLabel('Password', { exact: true }).fill('violet-harbour-41');
    await page.waitForFunction(
      () =>
        Array.from(document.querySelectorAll('.password-rules__rule')).some(
          (li) =>
            li.textContent?.includes('Not a common password') && li.classList.contains('password-rules__rule--met'),
        ),
      undefined,
      { timeout: 5000 },
    );
    await context.close();
  });

  for (const [device, viewport] of Object.entries(VIEWPORTS)) {
    it(`on a ${device}, settings' phone country shows its flag and calling code, not cut off`, async () => {
      const context = await browser.newContext({ viewport });
      await signedInAccount(server.url, context);
      const page = await context.newPage();
      await page.goto(`${server.url}/settings/profile`);
      const select = page.getByLabel('Phone country');
      await select.waitFor();
      const face = page.locator('.phone-field__country-face');
      const shown = await face.evaluate((element) => ({
        text: element.textContent,
        cut: element.scrollWidth > element.clientWidth,
        flag: getComputedStyle(element.querySelector('.fi')!).backgroundImage,
      }));
      expect(shown.text).toBe('+1');
      expect(shown.cut).toBe(false);
      expect(shown.flag).toContain('url(');
      const [faceBox, selectBox, numberBox] = await Promise.all([
        box(face),
        box(select),
        box(page.getByLabel('Phone number')),
      ]);
      expect(selectBox).toEqual(faceBox);
      expect(intersects(faceBox, numberBox)).toBe(false);
      expect(numberBox.width).toBeGreaterThan(150);
      await select.selectOption('GB');
      expect(await face.textContent()).toBe('+44');
      await face.scrollIntoViewIfNeeded();
      await screenshot(page, `settings-phone-country-${device}`);
      await context.close();
    });
  }
});
