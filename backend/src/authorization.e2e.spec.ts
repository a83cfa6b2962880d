import { randomUUID } from 'node:crypto';
import { SYSTEM_EVENTS, VIDEO_EVENTS } from '@serendip/proto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureAdmin } from './test-support/admins.js';
import { ApiClient } from './test-support/api-client.js';
import { startTestApp, type TestApp } from './test-support/test-app.js';
import { openSystemSocket, openVideoSocket, videoUser } from './test-support/video-users.js';

/**
 * Every route and socket event checks who is calling before it reads the body (DESIGN.md "Conventions"). The routes are
 * read from the running app's router, so a route added later without a guard fails here unless it is named below as
 * open on purpose.
 */

/** Open to guests by design: signing up and in, the links mailed to people, health, the dev mail outbox. */
const OPEN = new Set([
  'GET /api/health',
  'GET /api/dev/outbox',
  'POST /api/auth/signup',
  'POST /api/auth/verify-email',
  'POST /api/auth/login',
  'POST /api/auth/login/verify',
  'POST /api/auth/refresh-token',
  'POST /api/auth/password-reset',
  'POST /api/auth/reset-password',
  // Public pictures: their names are unguessable and they show on profiles.
  'GET /api/avatars/:file',
]);

/** For admins only (ops and moderation tools). */
const isAdminRoute = (path: string) => /^\/api\/(admin|dash)(\/|$)/.test(path);

interface Route {
  method: string;
  path: string;
}

/** The routes Express actually serves, from its router (Express 5: app.router.stack). */
function routesOf(test: TestApp): Route[] {
  const express = test.app.getHttpAdapter().getInstance() as {
    router: { stack: { route?: { path: string; methods: Record<string, boolean> } }[] };
  };
  return express.router.stack.flatMap((layer) =>
    layer.route
      ? Object.keys(layer.route.methods)
          .filter((m) => m !== '_all')
          .map((m) => ({ method: m.toUpperCase(), path: layer.route!.path }))
      : [],
  );
}

/** A concrete URL for a route pattern: every `:param` becomes a well-formed id nobody holds. */
const urlOf = (path: string) => path.replace(/:[A-Za-z]+/g, randomUUID());

/** Bodies a careless guard would let through to validation or to the handler. */
const BODIES: unknown[] = [undefined, {}, { userId: randomUUID(), sessionId: randomUUID(), x: 1 }, 'not json', [1, 2]];

async function send(client: ApiClient | undefined, base: string, method: string, path: string, body: unknown) {
  const res = await fetch(`${base}${urlOf(path)}`, {
    method,
    headers: {
      ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
      ...(client && { Cookie: client.cookieHeader() }),
    },
    body: body === undefined || method === 'GET' ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
  });
  await res.arrayBuffer();
  return res.status;
}

describe('authorization of every route and socket event', () => {
  let test: TestApp;
  let routes: Route[];

  beforeAll(async () => {
    test = await startTestApp();
    routes = routesOf(test);
  });
  afterAll(async () => {
    await test?.close();
  });

  it('reads a plausible route table, and every open route still exists', () => {
    const keys = routes.map((r) => `${r.method} ${r.path}`);
    expect(keys.length).toBeGreaterThan(20);
    for (const open of OPEN) expect(keys).toContain(open);
  });

  it('answers a guest 401 on every route that is not open, whatever the body', async () => {
    const wrong: string[] = [];
    for (const { method, path } of routes) {
      if (OPEN.has(`${method} ${path}`)) continue;
      for (const body of BODIES) {
        const status = await send(undefined, test.base, method, path, body);
        if (status !== 401) wrong.push(`${method} ${path} ${JSON.stringify(body)} -> ${status}`);
      }
    }
    expect(wrong).toEqual([]);
  });

  it('answers a guest with a forged or ended session 401, too', async () => {
    const user = await videoUser(test.base);
    const ended = new ApiClient(test.base);
    for (const [k, v] of user.api.cookies) ended.cookies.set(k, v);
    expect((await user.api.call('POST', '/auth/logout')).status).toBe(200);
    const forged = new ApiClient(test.base);
    forged.cookies.set('accessToken', 'eyJhbGciOiJub25lIn0.eyJzdWIiOiJ4Iiwic2lkIjoieSJ9.');
    const guarded = routes.filter((r) => !OPEN.has(`${r.method} ${r.path}`));
    for (const client of [ended, forged]) {
      for (const { method, path } of guarded) {
        expect(`${method} ${path} -> ${await send(client, test.base, method, path, {})}`).toBe(
          `${method} ${path} -> 401`,
        );
      }
    }
  });

  it('answers a signed-in non-admin 403 on every admin route, whatever the body, and an admin gets past the guard', async () => {
    const admin = routes.filter((r) => isAdminRoute(r.path));
    expect(admin.length).toBeGreaterThan(0);
    const { api } = await videoUser(test.base);
    const wrong: string[] = [];
    for (const { method, path } of admin) {
      for (const body of BODIES) {
        const status = await send(api, test.base, method, path, body);
        if (status !== 403) wrong.push(`${method} ${path} ${JSON.stringify(body)} -> ${status}`);
      }
    }
    expect(wrong).toEqual([]);

    const email = `admin-${randomUUID().slice(0, 8)}@example.com`;
    await ensureAdmin(test.app, email, 'violet-harbour-lantern-42');
    const boss = new ApiClient(test.base);
    expect(
      (await boss.call('POST', '/auth/login', { emailAddress: email, password: 'violet-harbour-lantern-42' })).status,
    ).toBe(200);
    for (const { method, path } of admin) {
      const status = await send(boss, test.base, method, path, {});
      expect([401, 403], `${method} ${path}`).not.toContain(status);
    }
  });

  it('answers a body that is not JSON with a 400 naming it, once the caller may use the route', async () => {
    const bad = (client: ApiClient, path: string) =>
      fetch(`${test.base}/api${path}`, {
        method: 'POST',
        headers: {
          'Content-Type': 'application/json',
          Cookie: client.cookieHeader(),
        },
        body: '{"firstName": ',
      });
    const guest = await bad(new ApiClient(test.base), '/auth/login');
    expect(guest.status).toBe(400);
    expect(await guest.json()).toMatchObject({ message: ['body: not valid JSON'] });
    const { api } = await videoUser(test.base);
    const signedIn = await bad(api, '/user/edit-profile');
    expect(signedIn.status).toBe(400);
    expect(await signedIn.json()).toMatchObject({ message: ['body: not valid JSON'] });
  });

  it('refuses a guest every video socket event: the handshake itself is refused', async () => {
    expect(Object.keys(VIDEO_EVENTS).length).toBeGreaterThan(10);
    const guest = new ApiClient(test.base);
    const refused = await openVideoSocket(test.base, guest).then(
      () => undefined,
      (error: Error & { data?: unknown }) => error.data,
    );
    expect(refused).toEqual({ code: 'unauthenticated', reason: expect.any(String) });
  });

  it('lets a guest only ping the system socket, and pushes nothing to it', async () => {
    expect(Object.values(SYSTEM_EVENTS)).toEqual(['ping']);
    const socket = await openSystemSocket(test.base);
    try {
      const pong = (await socket.timeout(5_000).emitWithAck('ping', { sentAt: 1 })) as { sentAt: number };
      expect(pong.sentAt).toBe(1);
    } finally {
      socket.close();
    }
  });
});
