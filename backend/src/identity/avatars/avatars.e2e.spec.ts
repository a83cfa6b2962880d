import { randomUUID } from 'node:crypto';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { crc32, deflateSync } from 'node:zlib';
import sharp from 'sharp';
import * as tusClient from 'tus-js-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiClient } from '../../test-support/api-client.js';
import { startTestApp, type TestApp } from '../../test-support/test-app.js';

const PASSWORD = 'violet-harbour-42';
const UPLOADS = '/api/uploads/avatars';

describe('avatar uploads over tus', () => {
  let test: TestApp;
  let dataDir: string;

  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(os.tmpdir(), 'serendip-avatars-'));
    test = await startTestApp({ DATA_DIR: dataDir });
  });
  afterAll(async () => {
    await test?.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  async function signedIn() {
    const client = new ApiClient(test.base);
    const emailAddress = `avatar-${randomUUID().slice(0, 8)}@example.com`;
    expect((await client.call('POST', '/auth/signup', { emailAddress, password: PASSWORD })).status).toBe(201);
    return client;
  }

  /** One tus request, as the browser would send it (cookies, client address). */
  function tus(client: ApiClient | undefined, method: string, url: string, headers = {}, body?: Buffer) {
    return fetch(`${test.base}${url}`, {
      method,
      headers: {
        'Tus-Resumable': '1.0.0',
        ...(client && {
          Cookie: client.cookieHeader(),
          'X-Forwarded-For': client.ip,
        }),
        ...headers,
      },
      body: body && new Uint8Array(body),
    });
  }

  async function create(client: ApiClient, length: number, fileName = 'me.jpg', type = 'image/jpeg') {
    const b64 = (text: string) => Buffer.from(text).toString('base64');
    const res = await tus(client, 'POST', UPLOADS, {
      'Upload-Length': String(length),
      'Upload-Metadata': `filename ${b64(fileName)},filetype ${b64(type)}`,
    });
    expect(res.status).toBe(201);
    const location = res.headers.get('location')!;
    expect(location).toMatch(/^\/api\/uploads\/avatars\/[0-9a-f]{32}$/);
    return location;
  }

  function patch(client: ApiClient, location: string, offset: number, chunk: Buffer) {
    return tus(
      client,
      'PATCH',
      location,
      { 'Upload-Offset': String(offset), 'Content-Type': 'application/offset+octet-stream' },
      chunk,
    );
  }

  async function upload(client: ApiClient, bytes: Buffer, fileName = 'me.jpg') {
    return patch(client, await create(client, bytes.length, fileName), 0, bytes);
  }

  const photo = (background: string) =>
    sharp({ create: { width: 1200, height: 800, channels: 3, background } })
      .jpeg()
      .withExif({ IFD3: { GPSLatitudeRef: 'N', GPSLatitude: '51/1 30/1 0/1', GPSMapDatum: 'WGS-84' } })
      .toBuffer();
  const avatarFiles = () => readdir(path.join(dataDir, 'avatars')).catch(() => []);
  const rawUploads = () => readdir(path.join(dataDir, 'avatar-uploads')).catch(() => []);
  const userInfo = async (client: ApiClient) => (await client.call('GET', '/auth/user-info')).body;

  it('needs a live session for every tus request but OPTIONS', async () => {
    expect((await tus(undefined, 'POST', UPLOADS, { 'Upload-Length': '10' })).status).toBe(401);
    expect((await tus(undefined, 'HEAD', `${UPLOADS}/${'a'.repeat(32)}`)).status).toBe(401);
    const bearer = await tus(undefined, 'POST', UPLOADS, { 'Upload-Length': '10', Authorization: 'Bearer nope' });
    expect(bearer.status).toBe(401);
    const options = await tus(undefined, 'OPTIONS', UPLOADS);
    expect(options.status).toBe(204);
    expect(options.headers.get('tus-max-size')).toBe(String(5 * 1024 * 1024));
  });

  it('resumes a JPEG sent in two PATCHes and makes it a 512x512 WebP without EXIF', async () => {
    const client = await signedIn();
    const jpeg = await photo('#c33');
    // The input really carries GPS EXIF.
    expect((await sharp(jpeg).metadata()).exif?.includes('WGS-84')).toBe(true);

    const location = await create(client, jpeg.length);
    const half = Math.floor(jpeg.length / 2);
    const first = await patch(client, location, 0, jpeg.subarray(0, half));
    expect(first.status).toBe(204);
    const head = await tus(client, 'HEAD', location);
    expect(head.status).toBe(200);
    expect(head.headers.get('upload-offset')).toBe(String(half));
    expect(head.headers.get('upload-length')).toBe(String(jpeg.length));

    const last = await patch(client, location, half, jpeg.subarray(half));
    expect(last.status).toBe(200);
    expect(last.headers.get('content-type')).toBe('application/json');
    const user = await last.json();
    expect(user.avatar).toMatch(/^\/api\/avatars\/[0-9a-f]{32}\.webp$/);
    expect((await userInfo(client)).avatar).toBe(user.avatar);
    // The raw upload is gone once the answer arrives.
    expect((await tus(client, 'HEAD', location)).status).toBe(404);
    expect(await rawUploads()).not.toContain(location.split('/').pop());

    const served = await fetch(`${test.base}${user.avatar}`);
    expect(served.status).toBe(200);
    expect(served.headers.get('content-type')).toBe('image/webp');
    expect(served.headers.get('x-content-type-options')).toBe('nosniff');
    expect(served.headers.get('cache-control')).toContain('immutable');
    const stored = await sharp(Buffer.from(await served.arrayBuffer())).metadata();
    expect(stored).toMatchObject({ format: 'webp', width: 512, height: 512 });
    expect(stored.exif).toBeUndefined();
  });

  it("works with the web client's tus-js-client: chunked PATCHes, the user read from the last response", async () => {
    const client = await signedIn();
    const noisy = await sharp({
      create: {
        width: 900,
        height: 900,
        channels: 3,
        background: '#888',
        noise: { type: 'gaussian', mean: 128, sigma: 40 },
      },
    })
      .jpeg()
      .toBuffer();
    let chunks = 0;
    const body = await new Promise<string>((resolve, reject) => {
      new tusClient.Upload(noisy, {
        endpoint: `${test.base}${UPLOADS}`,
        chunkSize: 128 * 1024,
        metadata: { filename: 'me.jpg', filetype: 'image/jpeg' },
        headers: { Cookie: client.cookieHeader(), 'X-Forwarded-For': client.ip },
        onChunkComplete: () => void chunks++,
        onSuccess: ({ lastResponse }) => resolve(lastResponse.getBody()),
        onError: reject,
      }).start();
    });
    expect(chunks).toBeGreaterThan(1);
    expect(JSON.parse(body).avatar).toBe((await userInfo(client)).avatar);
  });

  it('goes by the bytes, not the name: a PNG named .jpg is taken, a text file named .jpg is not', async () => {
    const client = await signedIn();
    const png = await sharp({ create: { width: 300, height: 600, channels: 4, background: '#3c3' } })
      .png()
      .toBuffer();
    const taken = await upload(client, png, 'holiday.jpg');
    expect(taken.status).toBe(200);
    const { avatar } = await taken.json();

    const text = await upload(client, Buffer.from('definitely not a picture\n'.repeat(20)), 'evil.jpg');
    expect(text.status).toBe(415);
    expect(await text.json()).toMatchObject({ message: 'Failed to upload image' });
    expect((await userInfo(client)).avatar).toBe(avatar);
  });

  it('refuses a corrupt picture and a decompression bomb with 422, never a crash', async () => {
    const client = await signedIn();
    const corrupt = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.alloc(4000, 0x5a)]);
    const broken = await upload(client, corrupt);
    expect(broken.status).toBe(422);
    expect((await broken.json()).message).toBe('Failed to upload image');

    const bomb = await upload(client, pngClaiming(20_000, 20_000));
    expect(bomb.status).toBe(422);
    expect((await bomb.json()).reason).toMatch(/too many pixels/);
    expect((await userInfo(client)).avatar).toBeNull();
  });

  it('refuses a real picture of more pixels than any phone camera makes (30 MP) with 422, before decoding it', async () => {
    const client = await signedIn();
    const huge = await sharp({ create: { width: 6000, height: 5000, channels: 3, background: '#888' } })
      .png()
      .toBuffer();
    const res = await upload(client, huge, 'huge.png');
    expect(res.status).toBe(422);
    expect((await res.json()).reason).toMatch(/too many pixels/);
    expect((await userInfo(client)).avatar).toBeNull();
  });

  it('refuses an upload over 5 MiB, or of unknown length, before storing anything', async () => {
    const client = await signedIn();
    const before = await rawUploads();
    const tooBig = await tus(client, 'POST', UPLOADS, { 'Upload-Length': String(5 * 1024 * 1024 + 1) });
    expect(tooBig.status).toBe(413);
    const deferred = await tus(client, 'POST', UPLOADS, { 'Upload-Defer-Length': '1' });
    expect(deferred.status).toBe(400);
    expect(await rawUploads()).toEqual(before);
  });

  it("hides one person's upload from everyone else", async () => {
    const owner = await signedIn();
    const other = await signedIn();
    const jpeg = await photo('#33c');
    const location = await create(owner, jpeg.length);
    expect((await patch(owner, location, 0, jpeg.subarray(0, 100))).status).toBe(204);

    const missing = await tus(other, 'HEAD', `${UPLOADS}/${'0'.repeat(32)}`);
    const foreign = await tus(other, 'HEAD', location);
    expect([missing.status, foreign.status]).toEqual([404, 404]);
    expect((await patch(other, location, 100, jpeg.subarray(100))).status).toBe(404);
    expect((await tus(other, 'DELETE', location)).status).toBe(404);

    const head = await tus(owner, 'HEAD', location);
    expect(head.headers.get('upload-offset')).toBe('100');
    expect((await tus(owner, 'DELETE', location)).status).toBe(204);
  });

  it('replaces the old picture, removes its file, and removes the last one with the account', async () => {
    const client = await signedIn();
    const first = await (await upload(client, await photo('#c3c'))).json();
    const firstName = first.avatar.split('/').pop();
    expect(await avatarFiles()).toContain(firstName);

    const second = await (await upload(client, await photo('#cc3'))).json();
    expect(second.avatar).not.toBe(first.avatar);
    expect((await fetch(`${test.base}${first.avatar}`)).status).toBe(404);
    expect(await avatarFiles()).not.toContain(firstName);
    expect((await fetch(`${test.base}${second.avatar}`)).status).toBe(200);

    expect((await client.call('POST', '/user/delete-account', { currentPassword: PASSWORD })).status).toBe(200);
    expect(await avatarFiles()).not.toContain(second.avatar.split('/').pop());
  });

  it('takes a whole picture in the creating request (creation-with-upload)', async () => {
    const client = await signedIn();
    const jpeg = await photo('#3cc');
    const before = new Set(await rawUploads());
    const res = await tus(
      client,
      'POST',
      UPLOADS,
      { 'Upload-Length': String(jpeg.length), 'Content-Type': 'application/offset+octet-stream' },
      jpeg,
    );
    expect(res.status).toBe(200);
    expect((await res.json()).avatar).toMatch(/^\/api\/avatars\/[0-9a-f]{32}\.webp$/);
    // tus still reads a creation's upload after answering, so its raw file goes just after the answer.
    const leftovers = async () => (await rawUploads()).filter((name) => !before.has(name));
    for (let i = 0; i < 500 && (await leftovers()).length > 0; i++) await new Promise((r) => setTimeout(r, 20));
    expect(await leftovers()).toEqual([]);
  });

  it('serves only names it made: traversal and unknown names are 404', async () => {
    for (const name of [
      '..%2F..%2Fpackage.json',
      '%2e%2e%2fpersonal-data.key',
      '..%5C..%5Cpackage.json',
      `${'0'.repeat(32)}.webp`,
      'avatar.png',
    ]) {
      expect((await fetch(`${test.base}/api/avatars/${name}`)).status, name).toBe(404);
    }
  });

  it('limits how many uploads one person starts (429 with Retry-After)', async () => {
    const client = await signedIn();
    for (let i = 0; i < 20; i++) {
      expect((await tus(client, 'POST', UPLOADS, { 'Upload-Length': '10' })).status).toBe(201);
    }
    const refused = await tus(client, 'POST', UPLOADS, { 'Upload-Length': '10' });
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
  });
});

/** A valid PNG header that claims width x height pixels: tiny on the wire, gigantic once decoded. */
function pngClaiming(width: number, height: number): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const typed = Buffer.concat([Buffer.from(type, 'ascii'), data]);
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(typed));
    return Buffer.concat([length, typed, crc]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 2, 0, 0, 0], 8);
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(Buffer.alloc(1000))),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}
