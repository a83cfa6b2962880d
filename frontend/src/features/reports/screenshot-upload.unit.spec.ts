import { MODERATION_PATHS } from '@serendip/proto';
import { describe, expect, it, vi } from 'vitest';
import { isHttpError } from '../../shared/http/http-error';
import { anUploadAnswer, fakeUploads } from './reports-test-support';
import { createScreenshotUpload } from './screenshot-upload';

const jpeg = new Blob(['jpeg-bytes'], { type: 'image/jpeg' });
const flush = () => new Promise((resolve) => setTimeout(resolve, 0));

describe('the screenshot upload (POST /api/report/screenshots)', () => {
  it('sends the JPEG bytes themselves with the session cookies and reports the percent sent', async () => {
    const uploads = fakeUploads();
    const percents: number[] = [];
    const done = createScreenshotUpload(vi.fn())(jpeg, { onProgress: (p) => percents.push(p) });
    const request = uploads.last()!;
    expect(request).toMatchObject({ method: 'POST', url: MODERATION_PATHS.uploadScreenshot, withCredentials: true });
    expect(request.headers['content-type']).toBe('image/jpeg');
    expect(request.body).toBe(jpeg);
    request.progress(250, 1000);
    request.progress(1000, 1000);
    request.respond(201, anUploadAnswer());
    await expect(done).resolves.toEqual(anUploadAnswer());
    expect(percents).toEqual([25, 100]);
  });

  it('refreshes the session once on a 401 and sends it again', async () => {
    const uploads = fakeUploads();
    const refresh = vi.fn(async () => undefined);
    const done = createScreenshotUpload(refresh)(jpeg, { onProgress: () => undefined });
    uploads.last()!.respond(401, { statusCode: 401, message: 'Unauthorized' });
    await flush();
    expect(refresh).toHaveBeenCalledTimes(1);
    expect(uploads.sent).toHaveLength(2);
    uploads.last()!.respond(201, anUploadAnswer({ screenshotId: 'shot-2' }));
    await expect(done).resolves.toMatchObject({ screenshotId: 'shot-2' });
  });

  it('fails with its own 401 when the refresh fails, and with the server’s words on a refusal', async () => {
    const uploads = fakeUploads();
    const expired = createScreenshotUpload(async () => Promise.reject(new Error('refresh refused')))(jpeg, {
      onProgress: () => undefined,
    });
    uploads.last()!.respond(401, { statusCode: 401, message: 'Unauthorized, Please Log In.' });
    await expect(expired).rejects.toMatchObject({ status: 401, message: 'Unauthorized, Please Log In.' });
    expect(uploads.sent).toHaveLength(1);

    const tooBig = createScreenshotUpload(vi.fn())(jpeg, { onProgress: () => undefined });
    uploads.last()!.respond(413, { statusCode: 413, message: 'The screenshot is too large.' });
    const error: unknown = await tooBig.catch((e: unknown) => e);
    expect(isHttpError(error) && error.message).toBe('The screenshot is too large.');
  });

  it('stops when asked, and takes no answer that is not an uploaded screenshot', async () => {
    const uploads = fakeUploads();
    const controller = new AbortController();
    const stopped = createScreenshotUpload(vi.fn())(jpeg, { onProgress: () => undefined, signal: controller.signal });
    controller.abort();
    await expect(stopped).rejects.toBeDefined();
    expect(uploads.last()!.aborted).toBe(true);

    const odd = createScreenshotUpload(vi.fn())(jpeg, { onProgress: () => undefined });
    uploads.last()!.respond(201, { ok: true });
    await expect(odd).rejects.toThrow(/Unexpected answer/);
  });
});
