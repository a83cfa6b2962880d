import { execFileSync } from 'node:child_process';
import { mkdtemp, open, readdir, rm, statfs } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { ApiClient } from '../../test-support/api-client.js';
import { startTestApp, type TestApp } from '../../test-support/test-app.js';
import { inACall } from '../../test-support/reported-call.js';
import { type VideoClient, videoUser } from '../../test-support/video-users.js';
import { STORAGE_FULL_MESSAGE, writeWholeFile } from './whole-file.js';

/**
 * DATA_DIR runs out of room while people upload an avatar and a report's screenshot: each gets a clear 503 (try
 * later), nothing half-written is left, nothing changes in their account, and once there is room again the same
 * uploads work without a restart. DATA_DIR is a small tmpfs mounted for the test (root only: mounting needs it).
 */
const cannotMount = (() => {
  if (process.getuid?.() !== 0) return 'mounting a small tmpfs for DATA_DIR needs root';
  const probe = path.join(os.tmpdir(), `serendip-mount-probe-${process.pid}`);
  try {
    execFileSync('mkdir', ['-p', probe]);
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=1m', 'tmpfs', probe], { stdio: 'ignore' });
    execFileSync('umount', [probe]);
    return undefined;
  } catch {
    return 'this machine does not let the test mount a tmpfs';
  } finally {
    execFileSync('rm', ['-rf', probe]);
  }
})();
if (cannotMount) console.warn(`disk-full tests skipped: ${cannotMount}`);

describe.skipIf(cannotMount)('a full DATA_DIR', () => {
  let dataDir: string;
  let test: TestApp;
  const sockets: VideoClient[] = [];
  const filler = () => path.join(dataDir, 'filler');

  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(os.tmpdir(), 'serendip-full-'));
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=32m,mode=0755', 'tmpfs', dataDir]);
    test = await startTestApp({ DATA_DIR: dataDir });
  });
  afterEach(async () => {
    await rm(filler(), { force: true });
    for (const socket of sockets.splice(0)) socket.disconnect();
  });
  afterAll(async () => {
    await test?.close();
    if (dataDir) {
      execFileSync('umount', [dataDir]);
      await rm(dataDir, { recursive: true, force: true });
    }
  });

  /** Takes every byte left (or all but `leave`), as another program filling the disk would. */
  async function fill(leave = 0) {
    const file = await open(filler(), 'a');
    try {
      for (const size of [1 << 20, 64 << 10, 4 << 10]) {
        const chunk = Buffer.alloc(size);
        for (;;) {
          const { bavail, bsize } = await statfs(dataDir);
          if (bavail * bsize - size < leave) break;
          try {
            await file.write(chunk);
          } catch (error) {
            if ((error as NodeJS.ErrnoException).code === 'ENOSPC') break;
            throw error;
          }
        }
      }
    } finally {
      await file.close();
    }
  }

  /** Every file under DATA_DIR/<folder>, hidden ones included. */
  const filesIn = (folder: string) => readdir(path.join(dataDir, folder), { recursive: true }).catch(() => []);

  const jpeg = (colour: string, size = 600) =>
    sharp({
      create: {
        width: size,
        height: size,
        channels: 3,
        background: colour,
        noise: { type: 'gaussian', mean: 128, sigma: 30 },
      },
    })
      .jpeg()
      .toBuffer();

  function tus(client: ApiClient, method: string, url: string, headers: Record<string, string>, body?: Buffer) {
    return fetch(`${test.base}${url}`, {
      method,
      headers: { 'Tus-Resumable': '1.0.0', Cookie: client.cookieHeader(), 'X-Forwarded-For': client.ip, ...headers },
      body: body && new Uint8Array(body),
    });
  }

  async function uploadAvatar(client: ApiClient, bytes: Buffer, beforeBytes: () => Promise<void> = async () => {}) {
    const created = await tus(client, 'POST', '/api/uploads/avatars', { 'Upload-Length': String(bytes.length) });
    expect(created.status).toBe(201);
    const location = created.headers.get('location')!;
    await beforeBytes();
    const res = await tus(
      client,
      'PATCH',
      location,
      { 'Upload-Offset': '0', 'Content-Type': 'application/offset+octet-stream' },
      bytes,
    );
    return { res, location };
  }

  it('an avatar upload: 503 with the reason, the unfinished upload dropped, no avatar; then it works', async () => {
    const ada = await videoUser(test.base, { firstName: 'Ada' });
    const photo = await jpeg('#c33');
    const { res, location } = await uploadAvatar(ada.api, photo, () => fill());
    expect(res.status).toBe(503);
    const body = await res.text();
    expect(JSON.parse(body)).toEqual({
      message: 'Failed to update profile picture on the server',
      reason: STORAGE_FULL_MESSAGE,
    });
    // Nothing of the server's insides in the answer (tus's own would carry the errno and a path).
    expect(body).not.toMatch(/ENOSPC|errno|\/tmp|serendip-full/);
    // The room it took is given back: the upload is gone, so is every byte of it.
    await expect.poll(async () => (await tus(ada.api, 'HEAD', location, {})).status).toBe(404);
    expect(await filesIn('avatar-uploads')).toEqual([]);
    expect(await filesIn('avatars')).toEqual([]);
    expect((await ada.api.call('GET', '/auth/user-info')).body.avatar).toBeNull();

    await rm(filler());
    const again = await uploadAvatar(ada.api, photo);
    expect(again.res.status).toBe(200);
    const { avatar } = (await again.res.json()) as { avatar: string };
    expect((await ada.api.call('GET', '/auth/user-info')).body.avatar).toBe(avatar);
    expect((await fetch(`${test.base}${avatar}`)).status).toBe(200);
  });

  it("a report's screenshot: 503 with the reason, no file and no upload on record; then it works", async () => {
    const { ada } = await inACall(test, sockets);
    const screenshot = await jpeg('#36c', 320);
    const send = () =>
      fetch(`${test.base}/api/report/screenshots`, {
        method: 'POST',
        headers: { Cookie: ada.api.cookieHeader(), 'X-Forwarded-For': ada.api.ip, 'Content-Type': 'image/jpeg' },
        body: new Uint8Array(screenshot),
      });
    const uploadsOf = () =>
      test.db.selectFrom('moderation_screenshot_uploads').selectAll().where('uploader_id', '=', ada.user._id).execute();

    await fill();
    const refused = await send();
    expect(refused.status).toBe(503);
    expect(refused.headers.get('retry-after')).toBe('300');
    expect(await refused.json()).toMatchObject({
      statusCode: 503,
      message: STORAGE_FULL_MESSAGE,
      code: 'storage-full',
    });
    expect(await filesIn('evidence/reports')).toEqual([]);
    expect(await uploadsOf()).toEqual([]);

    await rm(filler());
    const taken = await send();
    expect(taken.status).toBe(201);
    const { screenshotId } = (await taken.json()) as { screenshotId: string };
    expect(await filesIn('evidence/reports')).toEqual([`${screenshotId}.jpg`]);
    expect(await uploadsOf()).toHaveLength(1);
  });

  it('a write that runs out of room part-way leaves no file at all, not a cut-off one', async () => {
    await fill(256 << 10);
    const target = path.join(dataDir, 'evidence', 'part-way.jpg');
    await expect(writeWholeFile(target, Buffer.alloc(2 << 20, 1))).rejects.toMatchObject({ code: 'storage-full' });
    expect(await filesIn('evidence')).not.toContainEqual(expect.stringContaining('part-way'));
  });
});
