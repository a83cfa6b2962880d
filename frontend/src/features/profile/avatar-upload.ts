import { ACCOUNT_PATHS } from '@serendip/proto';
import type { DetailedError, Upload } from 'tus-js-client';
import { refreshSession } from '../../shared/http/http-client';
import { logError } from '../../shared/log';

/** The pictures the server takes (it checks the bytes itself and answers 415 or 413 otherwise). */
export const AVATAR_FILE_TYPES = 'image/jpeg,image/png,image/webp';
/** Refused before any byte is sent: the server would refuse it with 413 anyway. */
export const AVATAR_MAX_BYTES = 5 * 1024 * 1024;

const CHUNK_BYTES = 1024 * 1024;
const RETRY_DELAYS_MS = [0, 1000, 3000, 5000];

/** What an upload reports back. `succeeded` gets the finishing answer's body: the updated UserInfo as JSON. */
export interface AvatarUploadEvents {
  progressed(bytesSent: number, bytesTotal: number): void;
  succeeded(body: string): void;
  failed(error: unknown): void;
}

/** A running upload the screen can steer; it starts as soon as it is made. */
export interface AvatarUpload {
  pause(): void;
  resume(): void;
  /** Stops for good and asks the server to drop what it received. */
  cancel(): void;
}

export type StartAvatarUpload = (file: File, events: AvatarUploadEvents) => AvatarUpload;

function statusOf(error: DetailedError): number {
  return error.originalResponse?.getStatus() ?? 0;
}

/**
 * A resumable tus upload to ACCOUNT_PATHS.avatarUploads. The access-token cookie goes with every same-origin
 * request; a 401 (token expired mid-upload) refreshes the session once and retries, as every other call does
 * (spec 7 "Retry on 401"). tus-js-client is fetched only when someone uploads.
 */
export const startTusAvatarUpload: StartAvatarUpload = (file, events) => {
  let refreshed = false;
  const started: Promise<Upload> = import('tus-js-client').then(async ({ Upload }) => {
    const upload = new Upload(file, {
      endpoint: ACCOUNT_PATHS.avatarUploads,
      chunkSize: CHUNK_BYTES,
      retryDelays: RETRY_DELAYS_MS,
      metadata: { filename: file.name, filetype: file.type },
      removeFingerprintOnSuccess: true,
      onProgress: (bytesSent, bytesTotal) => events.progressed(bytesSent, bytesTotal),
      onSuccess: ({ lastResponse }) => events.succeeded(lastResponse.getBody()),
      onError: (error) => events.failed(error),
      // NOTE: tus awaits this before it decides on a retry, so the retry below already carries the new cookie.
      onAfterResponse: async (_request, response) => {
        if (response.getStatus() !== 401 || refreshed) return;
        refreshed = true;
        await refreshSession().catch((error: unknown) => logError('Avatar upload: refresh failed', error));
      },
      onShouldRetry: (error, attempt) => {
        const status = statusOf(error);
        if (status === 401) return attempt === 0;
        // tus-js-client's own rule: no retry for a refusal (4xx), except a conflict or a lock.
        const refused = status >= 400 && status < 500 && status !== 409 && status !== 423;
        return !refused && navigator.onLine;
      },
    });
    // The same file picked again after a pause that was cut short (page closed) goes on where it stopped.
    const [previous] = await upload.findPreviousUploads();
    if (previous) upload.resumeFromPreviousUpload(previous);
    upload.start();
    return upload;
  });
  started.catch((error: unknown) => events.failed(error));

  // Steps wait for the start, so a pause pressed while tus-js-client still loads is not lost.
  const then = (step: (upload: Upload) => unknown) =>
    void started.then(step).catch((error: unknown) => logError('Avatar upload: could not steer the upload', error));
  return {
    pause: () => then((upload) => upload.abort()),
    resume: () => then((upload) => upload.start()),
    cancel: () => then((upload) => upload.abort(true)),
  };
};
