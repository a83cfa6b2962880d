import { randomUUID } from 'node:crypto';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiClient } from '../../test-support/api-client.js';
import { startTestApp, type TestApp } from '../../test-support/test-app.js';

const UPLOADS = '/api/uploads/avatars';
const MiB = 1024 * 1024;

/**
 * Unfinished uploads hold disk space for up to an hour: one person cannot keep many of them, and all of them together
 * cannot declare more than AVATAR_PENDING_BYTES_MAX.
 */
describe('avatar uploads: caps on unfinished uploads', () => {
  let test: TestApp;
  let dataDir: string;

  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(os.tmpdir(), 'serendip-upload-caps-'));
    test = await startTestApp({ DATA_DIR: dataDir, AVATAR_PENDING_BYTES_MAX: String(12 * MiB) });
  });
  afterAll(async () => {
    await test?.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  async function signedIn() {
    const client = new ApiClient(test.base);
    const emailAddress = `caps-${randomUUID().slice(0, 8)}@example.com`;
    expect((await client.call('POST', '/auth/signup', { emailAddress, password: 'violet-harbour-42' })).status).toBe(
      201,
    );
    return client;
  }

  function tus(client: ApiClient, method: string, url: string, headers = {}, body?: Buffer) {
    return fetch(`${test.base}${url}`, {
      method,
      headers: { 'Tus-Resumable': '1.0.0', Cookie: client.cookieHeader(), 'X-Forwarded-For': client.ip, ...headers },
      body: body && new Uint8Array(body),
    });
  }
  const start = (client: ApiClient, length: number) =>
    tus(client, 'POST', UPLOADS, { 'Upload-Length': String(length) });
  async function create(client: ApiClient, length: number): Promise<string> {
    const res = await start(client, length);
    expect(res.status).toBe(201);
    return res.headers.get('location')!;
  }
  const patch = (client: ApiClient, location: string, offset: number, chunk: Buffer) =>
    tus(
      client,
      'PATCH',
      location,
      { 'Upload-Offset': String(offset), 'Content-Type': 'application/offset+octet-stream' },
      chunk,
    );
  const idOf = (location: string) => location.split('/').pop()!;
  /** The ids of the raw uploads kept on disk (each is a data file and its .json). */
  const rawUploads = async () =>
    (await readdir(path.join(dataDir, 'avatar-uploads')).catch(() => [])).filter((name) => /^[0-9a-f]{32}$/.test(name));

  describe('Uploads: one person keeps at most 2 unfinished uploads', () => {
    it("a third unfinished upload drops the person's oldest one, so a fresh try after a failed one still works", async () => {
      const client = await signedIn();
      const other = await signedIn();
      const othersUpload = await create(other, 1000);

      const opened = await start(client, 1000);
      // Unfinished uploads expire: tus says when (an hour on), and cleans them up after that.
      const expires = Date.parse(opened.headers.get('upload-expires') ?? '');
      expect(expires - Date.now()).toBeGreaterThan(55 * 60_000);
      expect(expires - Date.now()).toBeLessThanOrEqual(60 * 60_000);
      const first = opened.headers.get('location')!;
      expect((await patch(client, first, 0, Buffer.alloc(100))).status).toBe(204);
      const second = await create(client, 1000);
      const third = await create(client, 1000);
      // The oldest is gone, bytes and all; the two newest stay resumable.
      expect((await tus(client, 'HEAD', first)).status).toBe(404);
      expect(await rawUploads()).not.toContain(idOf(first));
      expect((await tus(client, 'HEAD', second)).status).toBe(200);
      expect((await tus(client, 'HEAD', third)).status).toBe(200);

      // However many one person starts, two stay on disk; someone else's upload is untouched.
      const started = [second, third];
      for (let i = 0; i < 10; i++) started.push(await create(client, 1000));
      const kept = (await rawUploads()).filter((id) => [first, ...started].map(idOf).includes(id));
      expect(kept.sort()).toEqual(started.slice(-2).map(idOf).sort());
      expect((await tus(other, 'HEAD', othersUpload)).status).toBe(200);

      // And the newest try goes through to the end.
      const jpeg = await sharp({ create: { width: 300, height: 300, channels: 3, background: '#c33' } })
        .jpeg()
        .toBuffer();
      const last = await patch(client, await create(client, jpeg.length), 0, jpeg);
      expect(last.status).toBe(200);
      expect((await last.json()).avatar).toMatch(/^\/api\/avatars\//);
    });
  });

  describe('Uploads: unfinished uploads together declare at most AVATAR_PENDING_BYTES_MAX', () => {
    it('refuses an upload past the cap with 503 and Retry-After, storing nothing, and takes it once room is made', async () => {
      // 12 MiB in all here: two people declare 5 MiB each.
      const ada = await signedIn();
      const bob = await signedIn();
      const carol = await signedIn();
      const adas = await create(ada, 5 * MiB);
      await create(bob, 5 * MiB);

      const before = await rawUploads();
      const refused = await start(carol, 5 * MiB);
      expect(refused.status).toBe(503);
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
      expect(await refused.json()).toMatchObject({
        statusCode: 503,
        message: 'Too many picture uploads are in progress; please try again in a minute',
      });
      expect(await rawUploads()).toEqual(before);
      // What still fits is taken, and no more.
      await create(carol, MiB);
      expect((await start(carol, 2 * MiB)).status).toBe(503);

      // Ada gives up on hers: its 5 MiB are free again.
      expect((await tus(ada, 'DELETE', adas)).status).toBe(204);
      await create(carol, 3 * MiB);
    });
  });
});
