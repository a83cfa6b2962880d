import { API_PREFIX } from '@serendip/proto';
import { HttpError, parseRetryAfter } from './http-error';

/** spec 7: every call goes to the API base path ending in /api, with credentials. */
export const API_BASE_PATH = `/${API_PREFIX}`;

/**
 * spec 7: the one call that is never retried on 401. Its new access token comes as an HttpOnly cookie only, never to
 * script (a deviation from spec 7, where it became the Bearer header: an XSS could have read it).
 */
export const REFRESH_TOKEN_PATH = '/auth/refresh-token';

type HttpMethod = 'GET' | 'POST' | 'PUT' | 'DELETE';

export interface RequestOptions {
  signal?: AbortSignal;
}

export interface HttpClientOptions {
  /** Defaults to the global fetch, looked up on every call so a test's `vi.stubGlobal` still reaches it. */
  fetch?: typeof fetch;
  baseUrl?: string;
  /** The clock that turns a Retry-After date into seconds. */
  now?: () => number;
}

export interface HttpClient {
  get<T>(path: string, options?: RequestOptions): Promise<T>;
  /** A GET whose answer's headers matter too (paging info beside a body whose shape the spec fixes). */
  getWithHeaders<T>(path: string, options?: RequestOptions): Promise<{ body: T; headers: Headers }>;
  post<T>(path: string, body?: unknown, options?: RequestOptions): Promise<T>;
  put<T>(path: string, body?: unknown, options?: RequestOptions): Promise<T>;
  /** DELETE (the feed's own deletions and unlikes); a 204's empty body reads as undefined. */
  del<T>(path: string, options?: RequestOptions): Promise<T>;
  /** POST a file as the body, with its own Content-Type (a post's picture). */
  upload<T>(path: string, file: Blob, options?: RequestOptions): Promise<T>;
  /**
   * POST /auth/refresh-token: the server sets new session cookies. Joins the refresh already running if there is
   * one, so the refresh token is rotated once however many callers ask.
   */
  refreshSession(): Promise<void>;
}

export function createHttpClient({
  fetch: fetchImpl = (input, init) => globalThis.fetch(input, init),
  baseUrl = API_BASE_PATH,
  now = () => Date.now(),
}: HttpClientOptions = {}): HttpClient {
  // Bumped at every refresh, so a 401 can tell whether it was earned by an access cookie already replaced.
  let tokenGeneration = 0;
  let refreshInFlight: Promise<void> | null = null;

  function send(method: HttpMethod, path: string, body: unknown, options: RequestOptions): Promise<Response> {
    const headers: Record<string, string> = { Accept: 'application/json' };
    // A file goes as its own bytes, typed as it is; anything else as JSON.
    const bytes = body instanceof Blob ? body : null;
    if (body !== undefined)
      headers['Content-Type'] = bytes ? bytes.type || 'application/octet-stream' : 'application/json';
    return fetchImpl(`${baseUrl}${path}`, {
      method,
      credentials: 'include',
      headers,
      body: body === undefined ? undefined : (bytes ?? JSON.stringify(body)),
      signal: options.signal,
    });
  }

  async function settle<T>(response: Response): Promise<{ body: T; headers: Headers }> {
    if (!response.ok) throw await toHttpError(response);
    return { body: (await readBody(response)) as T, headers: response.headers };
  }

  async function toHttpError(response: Response): Promise<HttpError> {
    return new HttpError({
      status: response.status,
      body: await readBody(response),
      retryAfterSeconds: parseRetryAfter(response.headers.get('Retry-After'), now()),
    });
  }

  async function request<T>(method: HttpMethod, path: string, body: unknown, options?: RequestOptions): Promise<T> {
    return (await exchange<T>(method, path, body, options)).body;
  }

  async function exchange<T>(
    method: HttpMethod,
    rawPath: string,
    body: unknown,
    options: RequestOptions = {},
  ): Promise<{ body: T; headers: Headers }> {
    const path = rawPath.startsWith('/') ? rawPath : `/${rawPath}`;
    const sentWithGeneration = tokenGeneration;
    const response = await send(method, path, body, options);
    if (response.status !== 401 || isCredentialExchange(path)) return settle<T>(response);

    const unauthorized = await toHttpError(response);
    // A refresh that finished while this request was on the wire already gave us a fresh cookie: replay with it
    // rather than rotating the refresh token a second time.
    if (tokenGeneration === sentWithGeneration) {
      try {
        await refreshSession();
      } catch {
        // spec 7: when the refresh fails, the caller sees the error of its own request.
        throw unauthorized;
      }
    }
    // Exactly one replay: whatever it answers, 401 included, is final.
    return settle<T>(await send(method, path, body, options));
  }

  function refreshSession(): Promise<void> {
    refreshInFlight ??= runRefresh().finally(() => {
      refreshInFlight = null;
    });
    return refreshInFlight;
  }

  async function runRefresh(): Promise<void> {
    const response = await fetchImpl(`${baseUrl}${REFRESH_TOKEN_PATH}`, {
      method: 'POST',
      credentials: 'include',
      headers: { Accept: 'application/json' },
    });
    // spec 7: status 200 is success (not any 2xx).
    if (response.status !== 200) throw await toHttpError(response);
    await readBody(response);
    tokenGeneration += 1;
  }

  return {
    get: (path, options) => request('GET', path, undefined, options),
    getWithHeaders: (path, options) => exchange('GET', path, undefined, options),
    post: (path, body, options) => request('POST', path, body, options),
    put: (path, body, options) => request('PUT', path, body, options),
    del: (path, options) => request('DELETE', path, undefined, options),
    upload: (path, file, options) => request('POST', path, file, options),
    refreshSession,
  };
}

/**
 * Calls whose 401 is the answer itself (wrong password, wrong code, a used link), not an expired access token:
 * refreshing and sending them again would only repeat the failure, and count twice against rate limits.
 */
const CREDENTIAL_EXCHANGES = new Set([
  REFRESH_TOKEN_PATH,
  '/auth/login',
  '/auth/login/verify',
  '/auth/signup',
  '/auth/verify-email',
  '/auth/password-reset',
  '/auth/reset-password',
]);

function isCredentialExchange(path: string): boolean {
  return CREDENTIAL_EXCHANGES.has(path.split('?')[0]!);
}

/** JSON when the body parses as JSON, the raw text otherwise (a proxy's HTML page), undefined when empty. */
async function readBody(response: Response): Promise<unknown> {
  const text = await response.text();
  if (text === '') return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

/** The app's one client: every API call goes through these. */
export const httpClient = createHttpClient();
export const { get, getWithHeaders, post, put, del, refreshSession } = httpClient;
