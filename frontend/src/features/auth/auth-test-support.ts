import { HEALTH_MESSAGES, HEALTH_PATH, type UserInfo } from '@serendip/proto';
import { act, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { toast } from 'sonner';
import { vi } from 'vitest';
import { SESSION_HINT_KEY } from './session-hint';

/** Test-only: a fake API behind the global fetch, so tests drive the real HTTP client, store and pages. */

export interface RecordedRequest {
  method: string;
  path: string;
  body: unknown;
  authorization: string | null;
}

export type Responder = (request: RecordedRequest) => Response | Promise<Response>;

export function reply(status: number, body?: unknown, headers: Record<string, string> = {}): Responder {
  return () =>
    new Response(body === undefined ? null : JSON.stringify(body), {
      status,
      headers: { 'Content-Type': 'application/json', ...headers },
    });
}

/** Answers with each responder in turn, the last one for every later call. */
export function inTurn(...responders: Responder[]): Responder {
  let next = 0;
  return (request) => {
    const responder = responders[Math.min(next, responders.length - 1)];
    next += 1;
    if (!responder) throw new Error('inTurn needs at least one responder');
    return responder(request);
  };
}

export function offline(): Responder {
  return () => Promise.reject(new TypeError('Failed to fetch'));
}

/**
 * The server: health is up, every route not set with `on` answers 404. `hold` keeps a route's answers waiting until
 * the test gives them, to see what the page shows meanwhile.
 */
export function fakeServer() {
  const routes = new Map<string, Responder>();
  const requests: RecordedRequest[] = [];
  routes.set(`GET ${HEALTH_PATH}`, reply(200, { message: HEALTH_MESSAGES.up }));

  const fetch = vi.fn(async (input: RequestInfo | URL, init: RequestInit = {}): Promise<Response> => {
    const request: RecordedRequest = {
      method: init.method ?? 'GET',
      path: String(input).split('?')[0] ?? '',
      body: typeof init.body === 'string' ? JSON.parse(init.body) : undefined,
      authorization: new Headers(init.headers).get('Authorization'),
    };
    requests.push(request);
    const responder =
      routes.get(`${request.method} ${request.path}`) ?? reply(404, { statusCode: 404, message: 'Not Found' });
    return responder(request);
  });

  const server = {
    fetch,
    requests,
    on(method: 'GET' | 'POST' | 'PUT' | 'DELETE', path: string, responder: Responder) {
      routes.set(`${method} ${path}`, responder);
      return server;
    },
    hold(method: 'GET' | 'POST' | 'PUT' | 'DELETE', path: string) {
      const waiting: Array<(response: Response) => void> = [];
      routes.set(`${method} ${path}`, () => new Promise<Response>((resolve) => waiting.push(resolve)));
      return {
        answer(status: number, body?: unknown) {
          const resolve = waiting.shift();
          if (!resolve) throw new Error(`no ${method} ${path} is waiting`);
          resolve(reply(status, body)({ method, path, body: undefined, authorization: null }) as Response);
        },
        waitingCount: () => waiting.length,
      };
    },
    requestsTo(method: 'GET' | 'POST' | 'PUT' | 'DELETE', path: string) {
      return requests.filter((request) => request.method === method && request.path === path);
    },
  };
  return server;
}

export type FakeServer = ReturnType<typeof fakeServer>;

/** Puts the fake server behind the global fetch. */
export function serveFakeApi(): FakeServer {
  const server = fakeServer();
  vi.stubGlobal('fetch', server.fetch);
  return server;
}

/** This browser was signed in before: the start of the app asks the server (see session-hint.ts). */
export function rememberSessionInThisBrowser(): void {
  window.localStorage.setItem(SESSION_HINT_KEY, '1');
}

export function hasSessionHint(): boolean {
  return window.localStorage.getItem(SESSION_HINT_KEY) === '1';
}

/** Between tests: no hint, no toast left up from the last test. */
export function resetBrowser(): void {
  window.localStorage.clear();
  act(() => {
    toast.dismiss();
  });
}

export function aUser(overrides: Partial<UserInfo> = {}): UserInfo {
  return {
    _id: 'user-1',
    emailAddress: 'ada@example.com',
    emailVerified: true,
    firstName: 'Ada',
    lastName: 'Lovelace',
    username: 'ada',
    gender: 'female',
    userBirthDate: '1990-12-10',
    userAge: 35,
    phoneNumber: null,
    bio: null,
    avatar: null,
    country: 'GB',
    city: 'London',
    isAdmin: false,
    role: 'user',
    isBanned: false,
    twoFactorEnabled: false,
    hideIp: false,
    isFinishedSteps: true,
    isFirstSteps: false,
    ...overrides,
  };
}

/** A user who has signed up but not yet finished the continue-signup step. */
export function aNewUser(overrides: Partial<UserInfo> = {}): UserInfo {
  return aUser({
    emailVerified: false,
    firstName: null,
    lastName: null,
    username: null,
    gender: null,
    userBirthDate: null,
    userAge: null,
    isFinishedSteps: false,
    ...overrides,
  });
}

/** Opens the header's avatar menu of the signed-in user (named after them) and picks an item. */
export async function pickFromUserMenu(item: string, name = 'Ada'): Promise<void> {
  await userEvent.click(await screen.findByRole('button', { name: `Account menu for ${name}` }));
  await userEvent.click(await screen.findByRole('menuitem', { name: item }));
}
