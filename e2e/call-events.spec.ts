import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AppServer, startAppServer } from './support/app-server.js';
import { screenshot } from './support/artifacts.js';
import { browserUnavailable, launchChromium } from './support/browser.js';
import { type Coturn, coturnUnavailable, startCoturn } from './support/coturn.js';
import { callPage, startMatching, videoFlowing } from './support/video-call.js';

/**
 * What the two sides of a real call are told as it happens: the partner typing, each line's time, and, when one
 * skips, the other's screen says so (then asks about the call) and the chat keeps a line saying the partner left.
 */
describe.skipIf(browserUnavailable() ?? coturnUnavailable())('call events in browsers', () => {
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

  const openChat = (page: Page) => page.getByRole('button', { name: 'Chat', exact: true }).click();

  it('shows the skipped side "Your partner skipped", then the feedback card, keeping the chat with its left line', async () => {
    const ada = await callPage(browser, server.url, contexts);
    const bob = await callPage(browser, server.url, contexts);
    await Promise.all([startMatching(ada), startMatching(bob)]);
    expect(await videoFlowing(ada)).toBe(true);
    expect(await videoFlowing(bob)).toBe(true);
    await openChat(ada);
    await openChat(bob);

    // Bob types: Ada is told (every account here is named Grace), and then reads his line with its time.
    await bob.getByPlaceholder('Send a message...').pressSequentially('Hi A', { delay: 50 });
    await ada.getByText('Grace is typing...').waitFor();
    await bob.getByPlaceholder('Send a message...').press('Enter');
    const line = ada.locator('.match-chat__line--partner', { hasText: 'Hi A' });
    await line.waitFor();
    expect(await line.locator('time').textContent()).toMatch(/^\d{2}:\d{2}$/);

    await bob.getByRole('button', { name: 'Skip Conversation' }).click();
    const notice = ada.getByText('Your partner skipped');
    await notice.waitFor({ timeout: 5_000 });
    await ada.getByText('Grace left the chat.').waitFor();
    await screenshot(ada, 'call-events-partner-skipped');
    // Bob chose to skip: his own screen has nothing to explain.
    expect(await bob.getByText('Your partner skipped').count()).toBe(0);

    // After a moment the notice gives way to the feedback card; the search for the next one is on meanwhile.
    await ada.getByRole('heading', { name: 'How was your call with Grace?' }).waitFor({ timeout: 5_000 });
    expect(await notice.count()).toBe(0);
    expect(await ada.locator('[data-match-status]').getAttribute('data-match-status')).toBe('searching');
    expect(await ada.getByText('Hi A').count()).toBe(1);
  });
});
