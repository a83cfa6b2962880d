import { MODERATION_PATHS, type ReportScreenshotUploaded } from '@serendip/proto';
import { refreshSession as refreshAppSession } from '../../shared/http/http-client';
import { HttpError, parseRetryAfter } from '../../shared/http/http-error';

export interface ScreenshotUploadOptions {
  /** Whole percent of the bytes sent, as the browser reports them. */
  onProgress: (percent: number) => void;
  signal?: AbortSignal;
}

export type UploadScreenshot = (jpeg: Blob, options: ScreenshotUploadOptions) => Promise<ReportScreenshotUploaded>;

interface Answer {
  status: number;
  body: unknown;
  retryAfter: string | null;
}

/**
 * `POST /api/report/screenshots` with the JPEG's own bytes as the body. An XMLHttpRequest rather than the app's fetch
 * client, because fetch reports no upload progress (spec 4: uploading with a percent). Otherwise it is sent like every
 * other call: same origin with the session cookies, and a 401 refreshes the session once and sends it again (spec 7).
 */
export function createScreenshotUpload(refreshSession: () => Promise<void> = refreshAppSession): UploadScreenshot {
  return async (jpeg, { onProgress, signal }) => {
    let answer = await send(jpeg, onProgress, signal);
    if (answer.status === 401) {
      try {
        await refreshSession();
      } catch {
        // spec 7: when the refresh fails, the caller sees the error of its own request.
        throw toError(answer);
      }
      answer = await send(jpeg, onProgress, signal);
    }
    if (answer.status < 200 || answer.status >= 300) throw toError(answer);
    if (!isUploaded(answer.body)) throw new Error(`Unexpected answer from ${MODERATION_PATHS.uploadScreenshot}`);
    return answer.body;
  };
}

export const uploadScreenshot: UploadScreenshot = createScreenshotUpload();

function send(jpeg: Blob, onProgress: (percent: number) => void, signal: AbortSignal | undefined): Promise<Answer> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const request = new XMLHttpRequest();
    const onAbort = () => request.abort();
    signal?.addEventListener('abort', onAbort, { once: true });
    const settle = () => signal?.removeEventListener('abort', onAbort);
    request.open('POST', MODERATION_PATHS.uploadScreenshot);
    request.withCredentials = true;
    request.setRequestHeader('Content-Type', 'image/jpeg');
    request.setRequestHeader('Accept', 'application/json');
    request.upload.onprogress = (event) => {
      if (event.lengthComputable && event.total > 0) onProgress(Math.floor((event.loaded / event.total) * 100));
    };
    request.onload = () => {
      settle();
      resolve({
        status: request.status,
        body: parseBody(request.responseText),
        retryAfter: request.getResponseHeader('Retry-After'),
      });
    };
    request.onerror = () => {
      settle();
      reject(new TypeError('The screenshot upload failed: no answer'));
    };
    request.onabort = () => {
      settle();
      reject(signal?.reason ?? new DOMException('The screenshot upload was stopped', 'AbortError'));
    };
    request.send(jpeg);
  });
}

function toError(answer: Answer): HttpError {
  return new HttpError({
    status: answer.status,
    body: answer.body,
    retryAfterSeconds: parseRetryAfter(answer.retryAfter, Date.now()),
  });
}

/** JSON when it parses, the raw text otherwise (a proxy's page), undefined when empty: as the fetch client reads. */
function parseBody(text: string): unknown {
  if (text === '') return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

function isUploaded(body: unknown): body is ReportScreenshotUploaded {
  if (typeof body !== 'object' || body === null) return false;
  const { screenshotId, url, sha256 } = body as Record<string, unknown>;
  return (
    typeof screenshotId === 'string' && screenshotId !== '' && typeof url === 'string' && typeof sha256 === 'string'
  );
}
