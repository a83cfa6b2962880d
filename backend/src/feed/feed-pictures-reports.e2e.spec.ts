import { request as httpRequest } from 'node:http';
import { randomUUID } from 'node:crypto';
import { type DashReport, FEED_PATHS, MODERATION_PATHS, type PostView } from '@serendip/proto';
import sharp from 'sharp';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { signedInAdmin } from '../test-support/admins.js';
import type { ApiClient } from '../test-support/api-client.js';
import { apiPath, feedActions, pictureActions } from '../test-support/feed-actions.js';
import { startTestApp, type TestApp } from '../test-support/test-app.js';
import { type SystemClient, VIDEO_USER_PASSWORD, videoUser } from '../test-support/video-users.js';
import { UNPOSTED_IMAGES_MAX } from './commands/upload-image/upload-image.command.js';
import { FeedImages } from './images/feed-images.js';

const path = apiPath;

/**
 * The feed's newer parts over the real app: posts' pictures (who sees one and until when, what is left of the bytes
 * uploaded, what an upload may cost the server) and reports of what is written there.
 */
describe('feed security: pictures and content reports under load, races and deletion', () => {
  let test: TestApp;
  let admin: ApiClient;
  const open: SystemClient[] = [];

  beforeAll(async () => {
    test = await startTestApp();
    ({ admin } = await signedInAdmin(test));
  }, 60_000);
  afterEach(() => {
    for (const socket of open.splice(0)) socket.close();
  });
  afterAll(async () => {
    await test?.close();
  });

  const person = (firstName: string) => videoUser(test.base, { firstName });
  const { publish } = feedActions(() => test, open);

  const { upload, uploaded, picture, photo } = pictureActions(() => test);

  it('keeps no more than the allowed unposted pictures per person, even when they are uploaded all at once', async () => {
    const ada = await person('Ada');
    const bytes = await photo(400);
    const answers = await Promise.all(Array.from({ length: 12 }, () => upload(ada, bytes)));
    const statuses = answers.map((r) => r.status);
    expect(statuses.filter((s) => s === 201).length).toBeLessThanOrEqual(UNPOSTED_IMAGES_MAX);
    expect(statuses.every((s) => s === 201 || s === 429)).toBe(true);
  });

  it('does not attach a second picture to a post when the publish is retried with the same Idempotency-Key', async () => {
    const [ada, bob] = [await person('Ada'), await person('Bob')];
    const first = await uploaded(ada, await photo());
    const second = await uploaded(ada, await photo(64, '#a3a'));
    const key = `retry-${randomUUID()}`;
    const published = await ada.api.call(
      'POST',
      path(FEED_PATHS.posts),
      { text: 'Hi', imageId: first },
      { 'Idempotency-Key': key },
    );
    expect(published.status).toBe(201);
    const retried = await ada.api.call(
      'POST',
      path(FEED_PATHS.posts),
      { text: 'Hi', imageId: second },
      { 'Idempotency-Key': key },
    );
    // The same post, still showing the first picture.
    expect((retried.body as PostView)._id).toBe((published.body as PostView)._id);
    expect((retried.body as PostView).image).toBe(FEED_PATHS.image(first));

    // No post shows the second: nobody else may load it, and it goes within the hour as every unposted upload does.
    expect((await picture(bob, second)).status).toBe(404);
    await test.app.get(FeedImages).purge(new Date(Date.now() + 2 * 60 * 60_000));
    expect((await picture(ada, second)).status).toBe(404);
    expect((await picture(bob, first)).status).toBe(200);
  });

  it('lets only one of two posts published at once show the same picture', async () => {
    const [ada, bob] = [await person('Ada'), await person('Bob')];
    const imageId = await uploaded(ada, await photo());
    const both = await Promise.all(
      ['One', 'Two'].map((text) => ada.api.call('POST', path(FEED_PATHS.posts), { text, imageId })),
    );
    expect(both.map((r) => r.status).sort()).toEqual([201, 400]);
    // Had both taken it, deleting either would take the other's picture with it.
    const shown = both.find((r) => r.status === 201)!.body as PostView;
    expect((await picture(bob, imageId)).status).toBe(200);
    expect(shown.image).toBe(FEED_PATHS.image(imageId));
  });

  it("keeps a reported post's picture for staff after its author deletes the post, as its words are kept", async () => {
    const [ada, bob] = [await person('Ada'), await person('Bob')];
    const imageId = await uploaded(ada, await photo());
    const post = (await ada.api.call('POST', path(FEED_PATHS.posts), { imageId })).body as PostView;
    const filed = await bob.api.call('POST', path(MODERATION_PATHS.reportContent), {
      kind: 'post',
      id: post._id,
      reason: 'inappropriate',
    });
    expect(filed.status).toBe(201);
    expect((await ada.api.call('DELETE', path(FEED_PATHS.post(post._id)))).status).toBe(204);

    // Kept with the report as a call's screenshot is: staff open it from the Reports table, each look recorded.
    const { reportId } = filed.body as { reportId: string };
    const listed = ((await admin.call('GET', '/dash/report/get-all?page=1')).body as DashReport[]).find(
      (r) => r._id === reportId,
    );
    expect(listed).toMatchObject({ type: 'post', screenshot: `/api/admin/reports/${reportId}/screenshot` });
    const staff = await fetch(`${test.base}${listed!.screenshot!}`, {
      headers: { Cookie: admin.cookieHeader(), 'X-Forwarded-For': admin.ip },
    });
    expect(staff.status).toBe(200);
    expect((await sharp(Buffer.from(await staff.arrayBuffer())).metadata()).format).toBe('jpeg');
    // The feed's own copy went with the post.
    expect((await picture(ada, imageId)).status).toBe(404);
  });

  it("answers a guest's picture upload with 401 without waiting for its body", async () => {
    const url = new URL(`${test.base}${FEED_PATHS.images}`);
    const status = await new Promise<number | 'no answer'>((resolve, reject) => {
      const req = httpRequest(
        {
          host: url.hostname,
          port: url.port,
          path: url.pathname,
          method: 'POST',
          headers: { 'Content-Type': 'image/jpeg', 'Content-Length': String(8 * 1024 * 1024 - 1) },
        },
        (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
        },
      );
      req.on('error', (error) => (error.message.includes('socket hang up') ? undefined : reject(error)));
      // The first bytes only, as a client that is slow (or never sends the rest) would.
      req.write(Buffer.alloc(64 * 1024));
      setTimeout(() => {
        resolve('no answer');
        req.destroy();
      }, 3_000);
    });
    expect(status).toBe(401);
  });

  it('answers a report of a post whose author just deleted the account with 404 or 201, never a 500', async () => {
    const [ada, bob] = [await person('Ada'), await person('Bob')];
    const posts: PostView[] = [];
    for (let i = 0; i < 25; i++) posts.push(await publish(ada, `Post ${i}`));
    expect((await ada.api.call('POST', '/user/delete-account', { currentPassword: VIDEO_USER_PASSWORD })).status).toBe(
      200,
    );
    const statuses: number[] = [];
    for (const post of posts.reverse()) {
      const res = await bob.api.call('POST', path(MODERATION_PATHS.reportContent), {
        kind: 'post',
        id: post._id,
        reason: 'spam',
      });
      statuses.push(res.status);
    }
    expect(statuses.filter((s) => s !== 404 && s !== 201)).toEqual([]);
  });
});
