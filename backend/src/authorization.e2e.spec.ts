import { randomUUID } from 'node:crypto';
import { RequestMethod } from '@nestjs/common';
import { GUARDS_METADATA, METHOD_METADATA, PATH_METADATA } from '@nestjs/common/constants.js';
import { ModulesContainer } from '@nestjs/core';
import { type BanStatusUpdatedPush, SYSTEM_EVENTS, TWO_FACTOR_FOR_DASHBOARD, VIDEO_EVENTS } from '@serendip/proto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AdminGuard, StaffGuard } from './identity/public/index.js';
import { API_DOCS_PATHS } from './platform/api-docs/api-docs.js';
import { Realtime } from './platform/realtime/realtime.js';
import { signedInAdmin, signedInModerator } from './test-support/admins.js';
import { ApiClient } from './test-support/api-client.js';
import { startTestApp, type TestApp } from './test-support/test-app.js';
import { openSystemSocket, openVideoSocket, type SystemClient, videoUser } from './test-support/video-users.js';

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
  return express.router.stack
    .flatMap((layer) =>
      layer.route
        ? Object.keys(layer.route.methods)
            .filter((m) => m !== '_all')
            .map((m) => ({ method: m.toUpperCase(), path: layer.route!.path }))
        : [],
    )
    .filter((route) => !isApiDocs(route.path));
}

/**
 * The API documents (Swagger UI and its files, the OpenAPI and AsyncAPI JSON) are open by design: they show the API's
 * shape, no one's data, and production serves them only with API_DOCS=true.
 */
const isApiDocs = (path: string) =>
  path === API_DOCS_PATHS.ui || path.startsWith(`${API_DOCS_PATHS.ui}/`) || path.startsWith(`${API_DOCS_PATHS.ui}-`);

/**
 * The guards each route runs (its controller's, then its handler's), read from Nest's own metadata (`@UseGuards`),
 * keyed as the router shows them: `POST /api/dash/users/:userId/role`.
 */
function guardsOf(test: TestApp): Map<string, unknown[]> {
  const guards = new Map<string, unknown[]>();
  const paths = (value: unknown) => (Array.isArray(value) ? (value as string[]) : [(value as string) ?? '']);
  for (const module of test.app.get(ModulesContainer).values()) {
    for (const { metatype } of module.controllers.values()) {
      if (typeof metatype !== 'function') continue;
      const classGuards = (Reflect.getMetadata(GUARDS_METADATA, metatype) as unknown[] | undefined) ?? [];
      const proto = metatype.prototype as Record<string, unknown>;
      for (const name of Object.getOwnPropertyNames(proto)) {
        const handler = proto[name];
        if (name === 'constructor' || typeof handler !== 'function') continue;
        const method = Reflect.getMetadata(METHOD_METADATA, handler) as RequestMethod | undefined;
        if (method === undefined) continue;
        const handlerGuards = (Reflect.getMetadata(GUARDS_METADATA, handler) as unknown[] | undefined) ?? [];
        for (const base of paths(Reflect.getMetadata(PATH_METADATA, metatype))) {
          for (const own of paths(Reflect.getMetadata(PATH_METADATA, handler))) {
            const path = `/api/${base}/${own}`.replace(/\/+/g, '/').replace(/(.)\/$/, '$1');
            guards.set(`${RequestMethod[method]} ${path}`, [...classGuards, ...handlerGuards]);
          }
        }
      }
    }
  }
  return guards;
}

/**
 * Routes a moderator may not use (spec 6 Admin): named here so that moving one to StaffGuard by mistake fails. Every
 * other AdminGuard route is admin-only too (read from the guards, so later routes are covered).
 */
const ADMIN_ONLY = [
  'POST /api/dash/users/:userId/role',
  'GET /api/dash/logs',
  'GET /api/admin/media',
  'POST /api/admin/snapshots',
  // Decrypted reasons, appeal explanations and report details: moderators read the dashboard's audit trail instead.
  'GET /api/admin/users/:userId/moderation-trail',
];

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

  it('answers a signed-in non-staff user 403 on every admin and dashboard route, whatever the body', async () => {
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
  });

  describe('staff roles and two-factor login (spec 6 Admin)', () => {
    /** Every admin and dashboard route, as 'admin' (AdminGuard) or 'staff' (StaffGuard only). */
    let gates: Map<string, 'admin' | 'staff'>;
    const keys = () => [...gates.keys()];
    const split = (key: string) => {
      const [method, path] = key.split(' ') as [string, string];
      return { method, path };
    };

    beforeAll(() => {
      const guards = guardsOf(test);
      gates = new Map();
      for (const { method, path } of routes.filter((r) => isAdminRoute(r.path))) {
        const key = `${method} ${path}`;
        const own = guards.get(key);
        // Every route the router serves is found in the metadata, or the classification below would be blind.
        expect(own, `the guards of ${key}`).toBeDefined();
        if (own!.includes(AdminGuard)) gates.set(key, 'admin');
        else if (own!.includes(StaffGuard)) gates.set(key, 'staff');
        else throw new Error(`${key} has neither StaffGuard nor AdminGuard`);
      }
    });

    it('reads the guards of every route: the named admin-only ones take AdminGuard, and some take StaffGuard', () => {
      for (const key of ADMIN_ONLY) expect(gates.get(key), key).toBe('admin');
      expect([...gates.values()]).toContain('staff');
    });

    it('answers an admin without two-factor login 403 on every route, saying to turn it on', async () => {
      const { admin, password } = await signedInAdmin(test);
      const off = await admin.call('POST', '/user/disable-twofac', { currentPassword: password });
      expect(off.status).toBe(200);
      expect(off.body.twoFactorEnabled).toBe(false);
      const wrong: string[] = [];
      for (const key of keys()) {
        const { method, path } = split(key);
        for (const body of BODIES) {
          const status = await send(admin, test.base, method, path, body);
          if (status !== 403) wrong.push(`${key} ${JSON.stringify(body)} -> ${status}`);
        }
      }
      expect(wrong).toEqual([]);
      const refused = await admin.call('POST', `/dash/users/${randomUUID()}/role`, { role: 'admin', reason: 'x' });
      expect(refused.body).toMatchObject({ statusCode: 403, message: TWO_FACTOR_FOR_DASHBOARD });
    });

    it('lets an admin with two-factor login past the guard of every route', async () => {
      const { admin } = await signedInAdmin(test);
      const wrong: string[] = [];
      for (const key of keys()) {
        const { method, path } = split(key);
        const status = await send(admin, test.base, method, path, {});
        if ([401, 403].includes(status)) wrong.push(`${key} -> ${status}`);
      }
      expect(wrong).toEqual([]);
    });

    it("answers a moderator 403 on every admin-only route and lets them past the staff routes' guard", async () => {
      const { moderator } = await signedInModerator(test);
      const wrong: string[] = [];
      for (const [key, gate] of gates) {
        const { method, path } = split(key);
        const status = await send(moderator, test.base, method, path, {});
        if (gate === 'admin' ? status !== 403 : [401, 403].includes(status)) wrong.push(`${gate} ${key} -> ${status}`);
      }
      expect(wrong).toEqual([]);
      const grant = await moderator.call('POST', `/dash/users/${randomUUID()}/role`, { role: 'admin', reason: 'x' });
      expect(grant.body).toMatchObject({ statusCode: 403, message: 'Only admins may do that' });
    });

    it('lets a moderator ban users for up to 30 days; longer and permanent bans, and bans of staff, are an admin’s', async () => {
      const { moderator } = await signedInModerator(test);
      const ban = (client: ApiClient, userId: string, penalty: unknown) =>
        client.call('POST', `/admin/users/${userId}/ban`, {
          reason: 'Abusive on camera',
          level: 'severe',
          penalty,
          overrideReason: 'Chosen by the test',
        });
      const target = await videoUser(test.base);
      for (const penalty of [{ kind: 'permanent' }, { kind: 'restriction', days: 31 }]) {
        expect((await ban(moderator, target.user._id, penalty)).body).toMatchObject({
          statusCode: 403,
          message: 'Only an admin may ban for longer than 30 days.',
        });
      }
      expect((await ban(moderator, target.user._id, { kind: 'restriction', days: 30 })).status).toBe(201);
      // Staff are an admin's to ban: a moderator cannot take another moderator or an admin off the dashboard.
      const { admin, adminId } = await signedInAdmin(test);
      const colleague = await signedInModerator(test);
      for (const staffId of [adminId, colleague.moderatorId]) {
        expect((await ban(moderator, staffId, { kind: 'restriction', days: 1 })).body).toMatchObject({
          statusCode: 403,
          message: 'Only an admin may ban a moderator or an admin.',
        });
      }
      expect((await ban(admin, colleague.moderatorId, { kind: 'restriction', days: 1 })).status).toBe(201);
      const other = await videoUser(test.base);
      expect((await ban(admin, other.user._id, { kind: 'permanent' })).status).toBe(201);
    });

    it('pushes to staff reach the system sockets of admins and moderators with two-factor login, no one else', async () => {
      const { admin } = await signedInAdmin(test);
      const { moderator } = await signedInModerator(test);
      const user = await videoUser(test.base);
      const lapsed = await signedInAdmin(test);
      expect(
        (await lapsed.admin.call('POST', '/user/disable-twofac', { currentPassword: lapsed.password })).status,
      ).toBe(200);
      const heard = new Map<string, string[]>();
      const sockets: SystemClient[] = [];
      for (const [name, client] of [
        ['admin', admin],
        ['moderator', moderator],
        ['user', user.api],
        ['admin without two-factor', lapsed.admin],
      ] as const) {
        const socket = await openSystemSocket(test.base, client);
        sockets.push(socket);
        heard.set(name, []);
        socket.on('banStatusUpdated', (push: BanStatusUpdatedPush) => heard.get(name)!.push(push.eventId));
      }
      try {
        const realtime = test.app.get(Realtime);
        const sent: string[] = [];
        // The sockets register a moment after they connect: push until both staff sockets heard one.
        await expect
          .poll(
            async () => {
              const id = randomUUID();
              sent.push(id);
              await realtime.toRole('staff', 'banStatusUpdated', { userId: randomUUID(), isBanned: false }, id);
              await new Promise((r) => setTimeout(r, 100));
              return heard.get('admin')!.length > 0 && heard.get('moderator')!.length > 0;
            },
            { timeout: 10_000 },
          )
          .toBe(true);
        const last = randomUUID();
        await realtime.toRole('staff', 'banStatusUpdated', { userId: randomUUID(), isBanned: false }, last);
        await expect
          .poll(() => heard.get('admin')!.includes(last) && heard.get('moderator')!.includes(last))
          .toBe(true);
        await new Promise((r) => setTimeout(r, 300));
        expect(heard.get('user')).toEqual([]);
        expect(heard.get('admin without two-factor')).toEqual([]);
      } finally {
        for (const socket of sockets) socket.close();
      }
    });
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
    // Presence (away, back) is a signed-in user's: a guest's is ignored, and the socket stays up.
    expect(Object.values(SYSTEM_EVENTS)).toEqual(['ping', 'away', 'back']);
    const socket = await openSystemSocket(test.base);
    try {
      socket.emit('away');
      socket.emit('back');
      const pong = (await socket.timeout(5_000).emitWithAck('ping', { sentAt: 1 })) as { sentAt: number };
      expect(pong.sentAt).toBe(1);
    } finally {
      socket.close();
    }
  });
});
