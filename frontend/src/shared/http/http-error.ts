import type { ApiError } from '@serendip/proto';

interface HttpErrorInit {
  status: number;
  body: unknown;
  retryAfterSeconds?: number | null;
  message?: string;
}

/**
 * A non-2xx answer from the API. `messages` holds what the server said (a 400 from validation carries one per
 * field); `message` joins them so it can go straight into a toast.
 */
export class HttpError extends Error {
  override readonly name = 'HttpError';
  readonly status: number;
  readonly body: unknown;
  readonly messages: readonly string[];
  /** From Retry-After (429, 503): seconds to wait, or null when the server gave none. */
  readonly retryAfterSeconds: number | null;

  constructor({ status, body, retryAfterSeconds = null, message }: HttpErrorInit) {
    const messages = serverMessages(body);
    super(message ?? (messages.length > 0 ? messages.join('; ') : `Request failed with status ${status}`));
    this.status = status;
    this.body = body;
    this.messages = messages;
    this.retryAfterSeconds = retryAfterSeconds;
  }
}

export function isHttpError(error: unknown): error is HttpError {
  return error instanceof HttpError;
}

/** The server's own words from an error body in the `ApiError` shape; nothing for any other body. */
function serverMessages(body: unknown): string[] {
  if (typeof body !== 'object' || body === null || !('message' in body)) return [];
  const { message } = body as Partial<ApiError>;
  if (typeof message === 'string') return message === '' ? [] : [message];
  if (Array.isArray(message)) return message.filter((item): item is string => typeof item === 'string');
  return [];
}

/**
 * Retry-After is either delta-seconds or an HTTP date (RFC 9110 10.2.3). A date in the past means "now" (0);
 * anything unreadable counts as absent rather than as a guess.
 */
export function parseRetryAfter(header: string | null, now: number): number | null {
  if (header === null) return null;
  const value = header.trim();
  if (/^\d+$/.test(value)) return Number(value);
  const at = Date.parse(value);
  if (Number.isNaN(at)) return null;
  return Math.max(0, Math.ceil((at - now) / 1000));
}
