import { randomUUID } from 'node:crypto';
import { type DashReport, FEED_PATHS, MODERATION_PATHS, type PostView } from '@serendip/proto';
import sharp from 'sharp';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { signedInAdmin } from '../test-support/admins.js';
import type { ApiClient } from '../test-support/api-client.js';
import { apiPath, banForADay, feedActions, pictureActions } from '../test-support/feed-actions.js';
import { startTestApp, type TestApp } from '../test-support/test-app.js';
import { type SystemClient, VIDEO_USER_PASSWORD, type VideoUser, videoUser } from '../test-support/video-users.js';

const path = apiPath;

/**
 * The feed's newer parts over the real app: posts' pictures (who sees one and until when, what is left of the bytes
 * uploaded, what an upload may cost the server) and reports of what is written there.
 */
describe('feed security: pictures and content reports', () => {
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
  const ban = (who: VideoUser) => banForADay(admin, who);

  it("hides a banned author's picture from everyone, as it hides the post", async () => {
    const [ada, bob] = [await person('Ada'), await person('Bob')];
    const imageId = await uploaded(ada, await photo());
    const post = await ada.api.call('POST', path(FEED_PATHS.posts), { text: 'Look', imageId });
    expect(post.status).toBe(201);
    expect((await picture(bob, imageId)).status).toBe(200);

    await ban(ada);
    await expect.poll(async () => (await picture(bob, imageId)).status, { timeout: 10_000 }).toBe(404);
    expect((await bob.api.call('GET', path(FEED_PATHS.post((post.body as PostView)._id)))).status).toBe(404);
  });

  it('turns a guest and a banned user away from uploading or loading a picture, whatever the body', async () => {
    const [ada, bob] = [await person('Ada'), await person('Bob')];
    const imageId = await uploaded(ada, await photo());
    expect((await ada.api.call('POST', path(FEED_PATHS.posts), { imageId })).status).toBe(201);
    const notAPicture = Buffer.from('not a picture');
    const guest = await fetch(`${test.base}${FEED_PATHS.images}`, {
      method: 'POST',
      headers: { 'Content-Type': 'image/jpeg' },
      body: new Uint8Array(notAPicture),
    });
    expect(guest.status).toBe(401);

    await ban(bob);
    // A bad body would be a 400 if it were looked at first.
    expect((await upload(bob, notAPicture)).status).toBe(403);
    expect((await upload(bob, await photo())).status).toBe(403);
    expect((await picture(bob, imageId)).status).toBe(403);
  });

  it("deletes a deleted account's pictures, posted or not", async () => {
    const [ada, bob] = [await person('Ada'), await person('Bob')];
    const posted = await uploaded(ada, await photo());
    expect((await ada.api.call('POST', path(FEED_PATHS.posts), { imageId: posted })).status).toBe(201);
    const waiting = await uploaded(ada, await photo(64, '#36a'));
    expect((await picture(bob, posted)).status).toBe(200);

    expect((await ada.api.call('POST', '/user/delete-account', { currentPassword: VIDEO_USER_PASSWORD })).status).toBe(
      200,
    );
    await expect.poll(async () => (await picture(bob, posted)).status, { timeout: 10_000 }).toBe(404);
    await expect
      .poll(
        async () =>
          (
            await test.db
              .selectFrom('feed_images')
              .select('image_id')
              .where('image_id', 'in', [posted, waiting])
              .execute()
          ).length,
        { timeout: 10_000 },
      )
      .toBe(0);
  });

  it('serves a picture as a WebP that no browser sniffs, with nothing left of a polyglot or its GPS position', async () => {
    const [ada, bob] = [await person('Ada'), await person('Bob')];
    const payload = `<script>alert('${randomUUID()}')</script>`;
    const jpeg = await sharp({ create: { width: 80, height: 60, channels: 3, background: '#a33' } })
      .jpeg()
      .withExif({ IFD0: { ImageDescription: payload }, IFD3: { GPSLatitudeRef: 'N', GPSLongitudeRef: 'E' } })
      .toBuffer();
    // A JPEG that is an HTML page too: the markup after its end-of-image marker.
    const polyglot = Buffer.concat([jpeg, Buffer.from(`<html><body>${payload}</body></html>`)]);
    // Declared as a PNG: the bytes say what it is.
    const imageId = await uploaded(ada, polyglot, 'image/png');
    expect((await ada.api.call('POST', path(FEED_PATHS.posts), { imageId })).status).toBe(201);

    const res = await picture(bob, imageId);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('image/webp');
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('cache-control')).toMatch(/private/);
    const bytes = Buffer.from(await res.arrayBuffer());
    expect(bytes.toString('latin1')).not.toContain('script');
    const meta = await sharp(bytes).metadata();
    expect([meta.format, meta.width, meta.height, meta.exif, meta.xmp, meta.icc]).toEqual([
      'webp',
      80,
      60,
      undefined,
      undefined,
      undefined,
    ]);
  });

  it('refuses a decompression bomb and a picture whose bytes are not an accepted type, with 400 naming the field', async () => {
    const ada = await person('Ada');
    // 6000 x 5000 of one colour: a few kB as a PNG, 30 million pixels decoded.
    const bomb = await sharp({ create: { width: 6000, height: 5000, channels: 3, background: '#fff' } })
      .png({ compressionLevel: 9 })
      .toBuffer();
    expect(bomb.length).toBeLessThan(1_000_000);
    const refused = await upload(ada, bomb, 'image/png');
    expect(refused.status).toBe(400);
    expect(await refused.json()).toMatchObject({ message: ['image: has too many pixels'] });

    const gif = await sharp({ create: { width: 8, height: 8, channels: 3, background: '#000' } })
      .gif()
      .toBuffer();
    const svg = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>');
    for (const [bytes, type] of [
      [gif, 'image/jpeg'],
      [svg, 'image/png'],
    ] as const) {
      const res = await upload(ada, bytes, type);
      expect(res.status).toBe(400);
      expect(await res.json()).toMatchObject({ message: ['image: must be a JPEG, PNG or WebP picture'] });
    }
    expect((await upload(ada, svg, 'image/svg+xml')).status).toBe(415);
  });

  it('answers a picture id that is no id, or names nothing, with 404', async () => {
    const ada = await person('Ada');
    for (const id of ['x', '../../etc/passwd', '..%2F..%2Fpackage.json', randomUUID()]) {
      const res = await fetch(`${test.base}/api/feed/images/${id}`, {
        headers: { Cookie: ada.api.cookieHeader(), 'X-Forwarded-For': ada.api.ip },
      });
      expect(`${id} -> ${res.status}`).toBe(`${id} -> 404`);
    }
  });

  it("shows staff a reported post's words and its author by first name, and keeps the queue from both parties and guests", async () => {
    const [ada, bob] = [await person('Ada'), await person('Bob')];
    const post = await publish(ada, 'Cheap watches here');
    const filed = await bob.api.call('POST', path(MODERATION_PATHS.reportContent), {
      kind: 'post',
      id: post._id,
      reason: 'spam',
      details: 'Selling',
    });
    expect(filed.status, JSON.stringify(filed.body)).toBe(201);
    const { reportId } = filed.body as { reportId: string };

    const listed = ((await admin.call('GET', '/dash/report/get-all?page=1')).body as DashReport[]).find(
      (r) => r._id === reportId,
    );
    expect(listed).toMatchObject({
      type: 'post',
      reportedUser: { _id: ada.user._id, firstName: 'Ada' },
      content: { postId: post._id, id: post._id, text: 'Cheap watches here' },
    });
    expect(JSON.stringify(listed)).not.toMatch(new RegExp(`${ada.user.emailAddress}|${bob.user.emailAddress}`, 'i'));
    // Neither party reads the queue.
    for (const who of [ada, bob]) expect((await who.api.call('GET', '/dash/report/get-all?page=1')).status).toBe(403);
    // A guest is turned away before the body is read (a bad one would be a 400).
    const guest = await fetch(`${test.base}${MODERATION_PATHS.reportContent}`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: '{"kind":"nope"}',
    });
    expect(guest.status).toBe(401);
  });
});
