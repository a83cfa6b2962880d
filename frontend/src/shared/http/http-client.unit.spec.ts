import { describe, expect, it, vi } from 'vitest';
import { answerWith } from '../../test-support/render-app';
import { createHttpClient } from './http-client';
import { HttpError } from './http-error';

const REFRESH_URL = '/api/auth/refresh-token';

interface RecordedCall {
  url: string;
  method: string;
  authorization: string | null;
  /** Which session cookie the browser held when the call went out (0: before any refresh). */
  cookieGeneration: number;
  credentials: RequestCredentials | undefined;
  contentType: string | null;
  body: unknown;
}

function json(status: number, body: unknown, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json', ...headers } });
}

/**
 * An API whose session cookie (which fetch sends by itself, `credentials: 'include'`) is good only after a refresh
 * it answered 200; until then it answers everything 401. Each call records which cookie generation it was sent
 * with. Refresh answers wait until the test gives them, so a test decides what is in flight at the same time.
 */
function fakeApi() {
  const calls: RecordedCall[] = [];
  const pendingRefreshes: Array<(response: Response) => void> = [];
  let cookieGeneration = 0;
  let acceptedGeneration: number | null = null;

  const fetchImpl = vi.fn(async (input: RequestInfo | URL, init: RequestInit = {}): Promise<Response> => {
    const headers = new Headers(init.headers);
    const call: RecordedCall = {
      url: String(input),
      method: init.method ?? 'GET',
      authorization: headers.get('Authorization'),
      cookieGeneration,
      credentials: init.credentials,
      contentType: headers.get('Content-Type'),
      body: typeof init.body === 'string' ? JSON.parse(init.body) : init.body,
    };
    calls.push(call);
    if (call.url === REFRESH_URL) return new Promise<Response>((resolve) => pendingRefreshes.push(resolve));
    if (acceptedGeneration !== null && call.cookieGeneration === acceptedGeneration) {
      return json(200, { path: call.url, method: call.method });
    }
    return json(401, { statusCode: 401, message: 'Unauthorized' });
  });

  return {
    fetchImpl,
    calls,
    refreshCalls: () => calls.filter((call) => call.url === REFRESH_URL),
    callsTo: (url: string) => calls.filter((call) => call.url === url),
    /** Answers the oldest waiting refresh; a 200 sets a new cookie, which the server then accepts. */
    async answerRefresh(status: number, body: unknown, { serverAcceptsToken = true } = {}) {
      await vi.waitFor(() => expect(pendingRefreshes.length).toBeGreaterThan(0));
      if (status === 200) {
        cookieGeneration += 1;
        if (serverAcceptsToken) acceptedGeneration = cookieGeneration;
      }
      pendingRefreshes.shift()?.(json(status, body));
    },
  };
}

describe('http client', () => {
  it('sends JSON with credentials under /api and returns the parsed answer', async () => {
    const fetchImpl = vi.fn(answerWith(201, { id: 'r1' }));
    const client = createHttpClient({ fetch: fetchImpl });

    await expect(client.post('/report/submit-report', { reason: 'spam' })).resolves.toEqual({ id: 'r1' });

    const [url, init] = fetchImpl.mock.calls[0] ?? [];
    expect(url).toBe('/api/report/submit-report');
    expect(init).toMatchObject({ method: 'POST', credentials: 'include', body: '{"reason":"spam"}' });
    expect(new Headers(init?.headers).get('Content-Type')).toBe('application/json');
    expect(new Headers(init?.headers).get('Authorization')).toBeNull();
  });

  it('sends no body on an empty POST and resolves undefined on an empty answer', async () => {
    const fetchImpl = vi.fn<typeof fetch>(async () => new Response(null, { status: 204 }));
    const client = createHttpClient({ fetch: fetchImpl });

    await expect(client.post('/auth/logout')).resolves.toBeUndefined();

    const init = fetchImpl.mock.calls[0]?.[1];
    expect(init?.body).toBeUndefined();
    expect(new Headers(init?.headers).get('Content-Type')).toBeNull();
  });

  describe('retry on 401 (spec 7)', () => {
    it('refreshes once and replays the request once with the new cookie, never holding a token in script', async () => {
      const api = fakeApi();
      const client = createHttpClient({ fetch: api.fetchImpl });

      const answer = client.put('/user/appeal-ban/u1', { appealExplanation: 'mistake' });
      await api.answerRefresh(200, { expiresInSeconds: 900 });

      await expect(answer).resolves.toEqual({ path: '/api/user/appeal-ban/u1', method: 'PUT' });
      expect(api.refreshCalls()).toHaveLength(1);
      const [original, replay] = api.callsTo('/api/user/appeal-ban/u1');
      expect(original).toMatchObject({ cookieGeneration: 0 });
      expect(replay).toMatchObject({ cookieGeneration: 1, body: { appealExplanation: 'mistake' } });
      expect(api.calls).toHaveLength(3);
      expect(api.calls.every((call) => call.authorization === null)).toBe(true);

      // The cookie serves later calls: no second refresh.
      await expect(client.get('/sessions')).resolves.toEqual({ path: '/api/sessions', method: 'GET' });
      expect(api.refreshCalls()).toHaveLength(1);
    });

    it('shares one refresh between concurrent 401s and replays every one of them', async () => {
      const api = fakeApi();
      const client = createHttpClient({ fetch: api.fetchImpl });
      const paths = ['/a', '/b', '/c', '/d', '/e'];

      const answers = paths.map((path) => client.get(path));
      // All five have failed and wait on the one refresh: nothing is replayed before it answers.
      await vi.waitFor(() => expect(api.calls).toHaveLength(paths.length + 1));
      await new Promise((resolve) => setTimeout(resolve, 10));
      expect(api.calls).toHaveLength(paths.length + 1);

      await api.answerRefresh(200, { expiresInSeconds: 900 });

      await expect(Promise.all(answers)).resolves.toEqual(
        paths.map((path) => ({ path: `/api${path}`, method: 'GET' })),
      );
      expect(api.refreshCalls()).toHaveLength(1);
      for (const path of paths) {
        expect(api.callsTo(`/api${path}`).map((call) => call.cookieGeneration)).toEqual([0, 1]);
      }
    });

    it('replays a 401 that arrives after the refresh finished with the new cookie, without refreshing again', async () => {
      const api = fakeApi();
      let releaseSlow: () => void = () => {};
      const slowAnswerHeld = new Promise<void>((resolve) => (releaseSlow = resolve));
      const fetchImpl = async (input: RequestInfo | URL, init?: RequestInit) => {
        const answer = api.fetchImpl(input, init);
        if (String(input) === '/api/slow' && api.callsTo('/api/slow').length === 1) await slowAnswerHeld;
        return answer;
      };
      const client = createHttpClient({ fetch: fetchImpl });

      const slow = client.get('/slow');
      const fast = client.get('/fast');
      await api.answerRefresh(200, { expiresInSeconds: 900 });
      await expect(fast).resolves.toBeDefined();
      releaseSlow();

      await expect(slow).resolves.toEqual({ path: '/api/slow', method: 'GET' });
      expect(api.refreshCalls()).toHaveLength(1);
      expect(api.callsTo('/api/slow').map((call) => call.cookieGeneration)).toEqual([0, 1]);
    });

    it('rejects the original and every waiting request with its own 401 when the refresh fails', async () => {
      const api = fakeApi();
      const client = createHttpClient({ fetch: api.fetchImpl });

      const answers = ['/a', '/b', '/c'].map((path) => client.get(path).catch((error: unknown) => error));
      await vi.waitFor(() => expect(api.calls).toHaveLength(4));
      await api.answerRefresh(401, { statusCode: 401, message: 'Refresh token reused' });

      for (const error of await Promise.all(answers)) {
        expect(error).toBeInstanceOf(HttpError);
        expect(error).toMatchObject({ status: 401, message: 'Unauthorized', body: { message: 'Unauthorized' } });
      }
      // Nothing was replayed.
      expect(api.calls).toHaveLength(4);

      // The failed refresh is over: the next 401 tries a new one.
      const later = client.get('/later');
      await api.answerRefresh(200, { expiresInSeconds: 900 });
      await expect(later).resolves.toEqual({ path: '/api/later', method: 'GET' });
      expect(api.refreshCalls()).toHaveLength(2);
    });

    it('takes only a 200 from the refresh as success (spec 7), not any 2xx', async () => {
      const api = fakeApi();
      const client = createHttpClient({ fetch: api.fetchImpl });

      const answer = client.get('/sessions');
      await api.answerRefresh(201, { expiresInSeconds: 900 });

      await expect(answer).rejects.toMatchObject({ status: 401, message: 'Unauthorized' });
      expect(api.callsTo('/api/sessions')).toHaveLength(1);
    });

    it('retries a request only once: a 401 on the replay is final', async () => {
      const api = fakeApi();
      const client = createHttpClient({ fetch: api.fetchImpl });

      const answer = client.get('/user/ban-info/u1');
      await api.answerRefresh(200, { expiresInSeconds: 900 }, { serverAcceptsToken: false });

      await expect(answer).rejects.toMatchObject({ status: 401 });
      expect(api.callsTo('/api/user/ban-info/u1')).toHaveLength(2);
      expect(api.refreshCalls()).toHaveLength(1);
    });

    it('takes a 401 from a login or a code check as the answer: no refresh, sent once', async () => {
      for (const path of ['/auth/login', '/auth/login/verify', '/auth/signup', '/auth/reset-password']) {
        const fetchImpl = vi.fn(answerWith(401, { statusCode: 401, message: 'Wrong e-mail address or password' }));
        const client = createHttpClient({ fetch: fetchImpl });
        await expect(client.post(path, {})).rejects.toMatchObject({
          status: 401,
          message: 'Wrong e-mail address or password',
        });
        expect(fetchImpl).toHaveBeenCalledTimes(1);
      }
    });

    it('never retries the refresh call itself', async () => {
      const api = fakeApi();
      const client = createHttpClient({ fetch: api.fetchImpl });

      const direct = client.post('/auth/refresh-token');
      await api.answerRefresh(401, { statusCode: 401, message: 'Unauthorized' });
      await expect(direct).rejects.toMatchObject({ status: 401 });

      const shared = client.refreshSession();
      await api.answerRefresh(401, { statusCode: 401, message: 'Unauthorized' });
      await expect(shared).rejects.toMatchObject({ status: 401 });

      expect(api.calls).toHaveLength(2);
      expect(api.calls.every((call) => call.url === REFRESH_URL && call.credentials === 'include')).toBe(true);
    });
  });

  describe('errors', () => {
    it('carries the field messages of a 400 from validation', async () => {
      const body = {
        statusCode: 400,
        message: ['password must be longer than or equal to 8 characters', 'emailAddress must be an email'],
        error: 'Bad Request',
      };
      const client = createHttpClient({ fetch: answerWith(400, body) });

      const error = await client.post('/auth/signup', { emailAddress: 'x', password: 'y' }).catch((e: unknown) => e);

      expect(error).toBeInstanceOf(HttpError);
      expect(error).toMatchObject({
        status: 400,
        body,
        messages: body.message,
        message: 'password must be longer than or equal to 8 characters; emailAddress must be an email',
      });
    });

    it('keeps a single server message and falls back to the status for a body without one', async () => {
      const single = createHttpClient({ fetch: answerWith(403, { statusCode: 403, message: 'Forbidden' }) });
      await expect(single.get('/dash/logs?page=1')).rejects.toMatchObject({ messages: ['Forbidden'] });

      const html = createHttpClient({ fetch: answerWith(502, '<!doctype html><title>502</title>') });
      await expect(html.get('/sessions')).rejects.toMatchObject({
        status: 502,
        body: '<!doctype html><title>502</title>',
        messages: [],
        message: 'Request failed with status 502',
      });
    });

    it('exposes Retry-After on a 429, in seconds or as an HTTP date', async () => {
      const limited = { statusCode: 429, message: 'Too many attempts' };
      const seconds = createHttpClient({ fetch: async () => json(429, limited, { 'Retry-After': '120' }) });
      await expect(seconds.post('/auth/login', {})).rejects.toMatchObject({ status: 429, retryAfterSeconds: 120 });

      const now = Date.parse('2025-11-03T10:00:00Z');
      const date = createHttpClient({
        fetch: async () => json(429, limited, { 'Retry-After': 'Mon, 03 Nov 2025 10:01:30 GMT' }),
        now: () => now,
      });
      await expect(date.post('/auth/login', {})).rejects.toMatchObject({ retryAfterSeconds: 90 });

      const none = createHttpClient({ fetch: answerWith(429, limited) });
      await expect(none.post('/auth/login', {})).rejects.toMatchObject({ retryAfterSeconds: null });
    });

    it('lets a network failure through as it is', async () => {
      const client = createHttpClient({ fetch: vi.fn().mockRejectedValue(new TypeError('Failed to fetch')) });

      await expect(client.get('/sessions')).rejects.toThrow(TypeError);
    });
  });
});
