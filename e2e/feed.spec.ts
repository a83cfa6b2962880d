import { randomUUID } from 'node:crypto';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signedInAccount } from './support/accounts.js';
import { finishAdminSignup, signInAdminInBrowser } from './support/admin.js';
import { type AppServer, startAppServer } from './support/app-server.js';
import { screenshot } from './support/artifacts.js';
import { seriousA11yProblems } from './support/axe.js';
import { browserUnavailable, launchChromium, VIEWPORTS } from './support/browser.js';

const ADMIN = { emailAddress: 'feed-admin@example.com', password: 'violet-harbour-lantern-42' };
/** A small phone (iPhone SE) and the large desktop: the sizes the feed is photographed at. */
const PHONE = { width: 375, height: 667 };

/** What a test reads of a page: whether its system socket is open, and the names of the events pushed on it. */
function watch(page: Page) {
  const sockets: { open: boolean; closed: boolean }[] = [];
  const pushed: string[] = [];
  page.on('websocket', (ws) => {
    if (!ws.url().includes('/socket.io/')) return;
    const socket = { open: false, closed: false };
    sockets.push(socket);
    ws.on('framereceived', ({ payload }) => {
      if (typeof payload !== 'string') return;
      // Socket.IO's CONNECT answer is '40{...}', an event '42["name",{...}]'.
      if (payload.startsWith('40')) socket.open = true;
      const event = /^42\["(\w+)"/.exec(payload)?.[1];
      if (event) pushed.push(event);
    });
    ws.on('close', () => (socket.closed = true));
  });
  return { socketOpen: () => sockets.some((s) => s.open && !s.closed), pushed };
}

/**
 * The feed in real browsers (spec 1 "live comment/reply updates, like counts", 2 'Comment Removed', 4 "Live content
 * merging", 5 "Live events", 7): three users A (desktop), B (phone) and C (desktop) and an admin, each in a browser
 * context of their own. A posts; B's like shows on A's screen live; C's comment reaches A, B (as CommentReplyBadWord)
 * and the admin (as newComment) live; A's reply reaches C; B's comment, deleted, goes from A's screen; C's profane
 * comment reaches no one else, and C gets the forced 'Comment Removed' notice until OK, not again after a reload.
 */
describe.skipIf(browserUnavailable())('the feed in a browser', () => {
  let server: AppServer;
  let browser: Browser;
  const contexts: BrowserContext[] = [];

  beforeAll(async () => {
    [server, browser] = await Promise.all([
      startAppServer({ ADMIN_EMAIL: ADMIN.emailAddress, ADMIN_PASSWORD: ADMIN.password }),
      launchChromium(),
    ]);
    await finishAdminSignup(server, ADMIN);
  }, 120_000);
  afterAll(async () => {
    await Promise.all(contexts.map((c) => c.close()));
    await browser?.close();
    await server?.stop();
  });

  async function newContext(viewport: { width: number; height: number }) {
    const context = await browser.newContext({ viewport, reducedMotion: 'reduce' });
    contexts.push(context);
    await context.addInitScript(() => window.localStorage.setItem('serendip.cookieConsent', 'true'));
    return context;
  }

  /** A page whose errors are printed, watched for its socket and pushes. */
  async function openPage(context: BrowserContext, who: string) {
    const page = await context.newPage();
    page.on('pageerror', (error) => console.error(`${who}'s page error: ${error.message}`));
    return { page, seen: watch(page) };
  }

  async function userAt(viewport: { width: number; height: number }, who: string) {
    const context = await newContext(viewport);
    await signedInAccount(server.url, context);
    return openPage(context, who);
  }

  /** Opens `path` and waits for the system socket: pushes reach the page from then on. */
  async function visit(page: Page, seen: ReturnType<typeof watch>, path: string) {
    await page.goto(`${server.url}${path}`);
    await expect.poll(seen.socketOpen, { timeout: 15_000 }).toBe(true);
  }

  const post = (page: Page, text: string) => page.getByRole('article').filter({ hasText: text }).first();
  const comment = (page: Page, text: string) =>
    page.locator('.feed-comment').filter({ has: page.locator('.feed-comment__text', { hasText: text }) });

  it('posts, likes, comments, replies and deletions show live; a profane comment is removed and its author told', async () => {
    const a = await userAt(VIEWPORTS.desktop, 'A');
    const b = await userAt(PHONE, 'B');
    const c = await userAt(VIEWPORTS.desktop, 'C');
    const adminContext = await newContext(VIEWPORTS.desktop);
    const admin = await openPage(adminContext, 'the admin');
    await signInAdminInBrowser(admin.page, server, ADMIN);

    // A posts.
    const text = `Harbour sunset tonight, anyone? ${randomUUID().slice(0, 6)}`;
    await visit(a.page, a.seen, '/feed');
    await a.page.getByRole('heading', { level: 1, name: 'Feed' }).waitFor();
    await a.page.getByRole('textbox', { name: 'Write a post' }).fill(text);
    // With a picture: uploaded as it is picked, previewed from the server's copy.
    const photo = await sharp({ create: { width: 640, height: 360, channels: 3, background: '#e8734a' } })
      .png()
      .toBuffer();
    await a.page.getByLabel('Picture file').setInputFiles({ name: 'sunset.png', mimeType: 'image/png', buffer: photo });
    await a.page.getByRole('img', { name: 'The picture you are about to post' }).waitFor();
    await a.page.getByRole('button', { name: 'Post', exact: true }).click();
    await a.page.getByText('Your post is live.').waitFor();
    const mine = post(a.page, text);
    await mine.waitFor();
    const href = await mine.getByRole('link', { name: '0 comments' }).getAttribute('href');
    expect(href).toMatch(/^\/feed\/post\/[\w-]+$/);
    const postPath = href!;

    // B likes it: A's count changes live, without a reload.
    await visit(b.page, b.seen, '/feed');
    // Everyone signed in sees the picture once it is posted.
    const picture = post(b.page, text).getByRole('img', { name: 'Picture posted by Grace' });
    await picture.scrollIntoViewIfNeeded();
    await expect
      .poll(() => picture.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth))
      .toBeGreaterThan(0);
    const bLike = post(b.page, text).getByRole('button', { name: 'Like' });
    await bLike.click();
    await expect.poll(() => bLike.getAttribute('aria-pressed')).toBe('true');
    await post(b.page, text).getByText('1 like', { exact: true }).waitFor();
    await mine.getByText('1 like', { exact: true }).waitFor({ timeout: 5_000 });
    await b.page.getByRole('button', { name: 'Menu' }).waitFor();
    expect(await mine.getByRole('button', { name: 'Like' }).getAttribute('aria-pressed')).toBe('false');
    await screenshot(a.page, 'feed-desktop');
    expect(await seriousA11yProblems(a.page)).toEqual([]);
    await screenshot(b.page, 'feed-phone');
    expect(await seriousA11yProblems(b.page)).toEqual([]);

    // Everyone opens the post.
    await a.page.getByRole('link', { name: '0 comments' }).first().click();
    await a.page.waitForURL(`${server.url}${postPath}`);
    await expect.poll(a.seen.socketOpen).toBe(true);
    await visit(b.page, b.seen, postPath);
    await visit(c.page, c.seen, postPath);
    await visit(admin.page, admin.seen, postPath);
    for (const { page } of [a, b, c, admin]) {
      await page.getByText(text).waitFor();
      await page.getByText('No comments yet. Start the conversation.').waitFor();
    }

    // C comments: A, B and the admin see it live. A user hears it as CommentReplyBadWord, an admin as newComment.
    await c.page.getByRole('textbox', { name: 'Write a comment' }).fill('Lovely colours!');
    await c.page.getByRole('button', { name: 'Comment', exact: true }).click();
    for (const [who, { page, seen }] of Object.entries({ a, b, c, admin }))
      await comment(page, 'Lovely colours!')
        .waitFor({ timeout: 5_000 })
        .catch((e: Error) => {
          throw new Error(`${who}: ${e.message}; pushed ${seen.pushed.join(',')}`);
        });
    expect(await comment(c.page, 'Lovely colours!').count()).toBe(1);
    expect(b.seen.pushed).toContain('CommentReplyBadWord');
    expect(b.seen.pushed).not.toContain('newComment');
    expect(admin.seen.pushed).toContain('newComment');

    // A replies: C sees it live.
    const onA = comment(a.page, 'Lovely colours!');
    await onA.getByRole('button', { name: 'Reply' }).click();
    await onA.getByRole('textbox', { name: /^Write a reply to / }).fill('Thank you, it was stunning.');
    await onA.getByRole('button', { name: 'Send reply' }).click();
    await comment(c.page, 'Lovely colours!').getByText('Thank you, it was stunning.').waitFor({ timeout: 5_000 });
    // Once on A's page: the answer to A's request and the push of the same reply merge by id.
    await expect.poll(() => onA.getByText('Thank you, it was stunning.').count()).toBe(1);

    // B comments, then deletes it: gone from A's screen live.
    await b.page.getByRole('textbox', { name: 'Write a comment' }).fill('Wish I was there');
    await b.page.getByRole('button', { name: 'Comment', exact: true }).click();
    await comment(a.page, 'Wish I was there').waitFor({ timeout: 5_000 });
    await comment(b.page, 'Wish I was there').getByRole('button', { name: 'Delete' }).click();
    await b.page
      .getByRole('alertdialog', { name: 'Delete this comment?' })
      .getByRole('button', { name: 'Delete' })
      .click();
    await b.page.getByText('Comment deleted.').waitFor();
    await comment(a.page, 'Wish I was there').waitFor({ state: 'detached', timeout: 5_000 });
    await screenshot(b.page, 'feed-post-phone');
    expect(await seriousA11yProblems(b.page)).toEqual([]);

    // C writes profanity, spelled out to slip past a naive filter: no one else's page shows it; C is told.
    const profane = 'you are a f u c k i n g idiot';
    await c.page.getByRole('textbox', { name: 'Write a comment' }).fill(profane);
    await c.page.getByRole('button', { name: 'Comment', exact: true }).click();
    const notice = c.page.getByRole('alertdialog', { name: 'Comment Removed' });
    await notice.waitFor({ timeout: 10_000 });
    expect(await notice.textContent()).toContain(profane);
    expect(await notice.textContent()).toContain('Hate Speech, Profanity and Inappropriate Language.');
    await screenshot(c.page, 'feed-comment-removed-desktop');
    // The admin sees it, marked removed and greyed; A and B never do.
    await comment(admin.page, profane)
      .getByText(/^Removed: /)
      .waitFor({ timeout: 5_000 });
    await a.page.waitForTimeout(1_000);
    for (const { page } of [a, b]) expect(await page.getByText(profane).count()).toBe(0);

    // OK dismisses it for good.
    const confirmed = c.page.waitForResponse((r) => r.url().includes('/markForceAsRead'));
    await notice.getByRole('button', { name: 'OK' }).click();
    expect((await confirmed).ok()).toBe(true);
    await notice.waitFor({ state: 'detached' });
    const forcedList = c.page.waitForResponse((r) => r.url().includes('/api/notifications/force-open/'));
    await c.page.reload();
    expect((await forcedList).status()).toBe(200);
    await c.page.getByText('Lovely colours!').waitFor();
    await c.page.waitForTimeout(1_000);
    expect(await c.page.getByRole('alertdialog').count()).toBe(0);
    // Its author still sees it on the post, marked removed, not as a live comment.
    await comment(c.page, profane)
      .getByText(/^Removed: /)
      .waitFor();

    // Another, appealed from the notice; the admin approves it under 'Comment removals' and it shows on A's page live.
    const appealed = 'this view is fuuucking gorgeous';
    await expect.poll(c.seen.socketOpen, { timeout: 15_000 }).toBe(true);
    await c.page.getByRole('textbox', { name: 'Write a comment' }).fill(appealed);
    await c.page.getByRole('button', { name: 'Comment', exact: true }).click();
    const second = c.page.getByRole('alertdialog', { name: 'Comment Removed' });
    await second.waitFor({ timeout: 10_000 });
    await second.getByRole('button', { name: 'Appeal' }).click();
    await second.getByRole('textbox', { name: 'Your appeal' }).fill('It is praise, not an insult.');
    await screenshot(c.page, 'feed-comment-appeal-desktop');
    await second.getByRole('button', { name: 'Submit Appeal' }).click();
    await c.page.getByText('Your appeal was sent.').waitFor();
    await second.waitFor({ state: 'detached' });
    expect(await a.page.getByText(appealed).count()).toBe(0);
    await admin.page.goto(`${server.url}/dashboard/appeals`);
    const removals = admin.page.getByRole('region', { name: 'Comment removals' });
    const appeal = removals.getByRole('article').filter({ hasText: appealed });
    await appeal.waitFor();
    expect(await appeal.textContent()).toContain('It is praise, not an insult.');
    await appeal.getByRole('button', { name: 'Approve' }).click();
    await admin.page.getByText(/^Appeal approved: /).waitFor();
    await comment(a.page, appealed).waitFor({ timeout: 10_000 });

    // The post page on a desktop.
    await a.page.reload();
    await comment(a.page, 'Lovely colours!').waitFor();
    // The bell and the avatar menu are chunks of their own: photographed once they are in.
    await a.page.getByRole('button', { name: /^Notifications, / }).waitFor();
    await screenshot(a.page, 'feed-post-desktop');
    expect(await seriousA11yProblems(a.page)).toEqual([]);
    expect(await a.page.getByText(profane).count()).toBe(0);

    // B opens A's page from A's name on the post; A's own name leads A to /profile.
    await visit(b.page, b.seen, postPath);
    const authorLink = b.page.getByRole('article', { name: /^Post by / }).getByRole('link', { name: 'Grace' });
    const peerPath = await authorLink.getAttribute('href');
    expect(peerPath).toMatch(/^\/u\/[\w-]+$/);
    await authorLink.click();
    await b.page.waitForURL(`${server.url}${peerPath}`);
    await b.page.getByRole('heading', { level: 1, name: 'Grace' }).waitFor();
    await post(b.page, text).waitFor();
    await screenshot(b.page, 'feed-peer-phone');
    expect(await seriousA11yProblems(b.page)).toEqual([]);
    await a.page.goto(`${server.url}${peerPath}`);
    await a.page.waitForURL(`${server.url}/profile`);
    await a.page.getByRole('heading', { level: 2, name: 'Your posts' }).waitFor();
    await post(a.page, text).waitFor();
    await a.page.getByRole('button', { name: /^Notifications, / }).waitFor();
    await screenshot(a.page, 'feed-profile-desktop');
    expect(await seriousA11yProblems(a.page)).toEqual([]);

    // What each did, on their activity page: C's removed comment says so.
    await visit(c.page, c.seen, '/activity');
    const activity = c.page.getByRole('list', { name: 'Your activity, newest first' });
    await activity.getByText('Lovely colours!').waitFor();
    await activity.getByText(/^Removed: /).waitFor();
    await c.page.getByRole('button', { name: /^Notifications, / }).waitFor();
    await screenshot(c.page, 'feed-activity-desktop');
    expect(await seriousA11yProblems(c.page)).toEqual([]);
    await visit(b.page, b.seen, '/activity');
    await b.page.getByRole('list', { name: 'Your activity, newest first' }).getByText('You liked a post').waitFor();
    await screenshot(b.page, 'feed-activity-phone');
  }, 240_000);

  it('on a phone: my removed comment is appealed from the post after OK on its notice; the feed clears the bottom bar; the picture × shows on a white picture', async () => {
    const d = await userAt(PHONE, 'D');
    await visit(d.page, d.seen, '/feed');
    await d.page.getByRole('heading', { level: 1, name: 'Feed' }).waitFor();

    // A white picture: its remove × is a solid dark round button, not lost in it.
    const white = await sharp({ create: { width: 400, height: 300, channels: 3, background: '#ffffff' } })
      .png()
      .toBuffer();
    await d.page.getByLabel('Picture file').setInputFiles({ name: 'snow.png', mimeType: 'image/png', buffer: white });
    const remove = d.page.getByRole('button', { name: 'Remove picture' });
    await remove.waitFor();
    const [r, g, b, alpha = 1] = (await remove.evaluate((el) => getComputedStyle(el).backgroundColor))
      .match(/[\d.]+/g)!
      .map(Number);
    expect(Math.max(r!, g!, b!)).toBeLessThan(40);
    expect(alpha).toBeGreaterThan(0.8);
    await remove.focus();
    await screenshot(d.page, 'feed-picture-remove-phone');

    const text = `Snow day ${randomUUID().slice(0, 6)}`;
    await d.page.getByRole('textbox', { name: 'Write a post' }).fill(text);
    await d.page.getByRole('button', { name: 'Post', exact: true }).click();
    await d.page.getByText('Your post is live.').waitFor();
    await post(d.page, text).waitFor();

    // Scrolled to the bottom, the page's last row (Load more when there is one) ends above the fixed bottom bar.
    await d.page.evaluate(() => window.scrollTo(0, document.body.scrollHeight));
    const [lastBottom, barTop] = await d.page.evaluate(() => [
      document.querySelector('.feed-page')!.lastElementChild!.getBoundingClientRect().bottom,
      document.querySelector('.mobile-nav')!.getBoundingClientRect().top,
    ]);
    expect(lastBottom).toBeLessThanOrEqual(barTop);

    // A profane comment: OK on its notice, and it is still appealable from the post.
    await post(d.page, text).getByRole('link', { name: '0 comments' }).click();
    await d.page.waitForURL(/\/feed\/post\//);
    await expect.poll(d.seen.socketOpen, { timeout: 15_000 }).toBe(true);
    const profane = 'what a f u c k i n g idiot';
    await d.page.getByRole('textbox', { name: 'Write a comment' }).fill(profane);
    await d.page.getByRole('button', { name: 'Comment', exact: true }).click();
    const notice = d.page.getByRole('alertdialog', { name: 'Comment Removed' });
    await notice.waitFor({ timeout: 10_000 });
    await notice.getByRole('button', { name: 'OK' }).click();
    await notice.waitFor({ state: 'detached' });
    await d.page.reload();
    const mine = comment(d.page, profane);
    await mine.getByText(/^Removed/).waitFor();
    const appealButton = mine.getByRole('button', { name: 'Appeal' });
    await appealButton.scrollIntoViewIfNeeded();
    await d.page.getByRole('button', { name: /^Notifications, / }).waitFor();
    await screenshot(d.page, 'feed-post-removed-appeal-phone');
    expect(await seriousA11yProblems(d.page)).toEqual([]);

    await appealButton.click();
    const dialog = d.page.getByRole('dialog', { name: 'Appeal the removal of your comment' });
    await dialog.getByRole('textbox', { name: 'Your appeal' }).fill('I was quoting a film.');
    await screenshot(d.page, 'feed-post-appeal-dialog-phone');
    await dialog.getByRole('button', { name: 'Submit Appeal' }).click();
    await d.page.getByText('Your appeal was sent.').waitFor();
    await mine.getByText('Appeal sent').waitFor();
    // The server says so too.
    await d.page.reload();
    await comment(d.page, profane).getByText('Appeal sent').waitFor();
    expect(await comment(d.page, profane).getByRole('button', { name: 'Appeal' }).count()).toBe(0);
  }, 120_000);
});
