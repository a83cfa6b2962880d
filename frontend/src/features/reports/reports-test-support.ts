import type { RecentCall, ReportScreenshotUploaded } from '@serendip/proto';
import { vi } from 'vitest';

/**
 * Test-only: the browser's XMLHttpRequest, played by the test. Each request the code sends is recorded; the test
 * reports upload progress and answers it when it likes.
 */
export class FakeUploadRequest {
  method = '';
  url = '';
  readonly headers: Record<string, string> = {};
  withCredentials = false;
  body: unknown;
  status = 0;
  responseText = '';
  aborted = false;
  readonly upload: { onprogress: ((event: ProgressEvent) => void) | null } = { onprogress: null };
  onload: (() => void) | null = null;
  onerror: (() => void) | null = null;
  onabort: (() => void) | null = null;

  constructor(private readonly sent: FakeUploadRequest[]) {}

  open(method: string, url: string) {
    this.method = method;
    this.url = url;
  }
  setRequestHeader(name: string, value: string) {
    this.headers[name.toLowerCase()] = value;
  }
  getResponseHeader() {
    return null;
  }
  send(body: unknown) {
    this.body = body;
    this.sent.push(this);
  }
  abort() {
    this.aborted = true;
    this.onabort?.();
  }

  /** The browser says this much of the body went. */
  progress(loaded: number, total: number) {
    this.upload.onprogress?.({ lengthComputable: true, loaded, total } as ProgressEvent);
  }
  respond(status: number, body?: unknown) {
    this.status = status;
    this.responseText = body === undefined ? '' : JSON.stringify(body);
    this.onload?.();
  }
}

/** Puts FakeUploadRequest behind the global XMLHttpRequest; `sent` lists what went out, oldest first. */
export function fakeUploads() {
  const sent: FakeUploadRequest[] = [];
  vi.stubGlobal(
    'XMLHttpRequest',
    class extends FakeUploadRequest {
      constructor() {
        super(sent);
      }
    },
  );
  return { sent, last: () => sent.at(-1) };
}

export function anUploadAnswer(overrides: Partial<ReportScreenshotUploaded> = {}): ReportScreenshotUploaded {
  return { screenshotId: 'shot-1', url: '/api/report/screenshots/shot-1', sha256: 'ab'.repeat(32), ...overrides };
}

/**
 * jsdom draws no video and encodes no canvas: the partner's video shows a 640x480 frame and the canvas hands back
 * `jpeg` for it. Returns the toBlob spy, to check the JPEG quality asked for.
 */
export function partnerVideoShowsAFrame(jpeg = new Blob(['jpeg-bytes'], { type: 'image/jpeg' })) {
  vi.spyOn(HTMLVideoElement.prototype, 'videoWidth', 'get').mockReturnValue(640);
  vi.spyOn(HTMLVideoElement.prototype, 'videoHeight', 'get').mockReturnValue(480);
  const drawImage = vi.fn();
  vi.spyOn(HTMLCanvasElement.prototype, 'getContext').mockReturnValue({
    drawImage,
  } as unknown as CanvasRenderingContext2D);
  const toBlob = vi
    .spyOn(HTMLCanvasElement.prototype, 'toBlob')
    .mockImplementation((callback: BlobCallback) => callback(jpeg));
  return { drawImage, toBlob, jpeg };
}

export function aRecentCall(overrides: Partial<RecentCall> = {}): RecentCall {
  const endedAt = Date.now() - 20 * 60_000;
  return {
    matchId: 'match-1',
    partner: { firstName: 'Bob', avatar: null, country: 'DE' },
    startedAt: new Date(endedAt - 252_000).toISOString(),
    endedAt: new Date(endedAt).toISOString(),
    durationMs: 252_000,
    reported: false,
    ...overrides,
  };
}
