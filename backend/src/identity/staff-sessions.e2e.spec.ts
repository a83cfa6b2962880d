import { randomUUID } from 'node:crypto';
import { CommandBus } from '@nestjs/cqrs';
import type { AccountUpdatedPush, BanStatusUpdatedPush, UserInfo } from '@serendip/proto';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { Realtime } from '../platform/realtime/realtime.js';
import { ensureAdmin, signedInAdmin, signedInModerator, signInWithCode } from '../test-support/admins.js';
import { ApiClient } from '../test-support/api-client.js';
import { eventually } from '../test-support/eventually.js';
import { startTestApp, type TestApp } from '../test-support/test-app.js';
import {
  devOutbox,
  openSystemSocket,
  type SystemClient,
  VIDEO_USER_PASSWORD,
  videoUser,
} from '../test-support/video-users.js';
import { SetRole } from './commands/set-role/set-role.command.js';

const CODE_SESSION = 'Sign in again with the code we e-mail you to use the dashboard.';

/**
 * spec 6 Admin: staff reach the dashboard (routes and live pushes) only from a session that was started with the mailed
 * code, so a stolen password alone never does: not even after the thief turns two-factor login on from that session.
 * A banned staff member hears no staff pushes either.
 */
describe('staff sessions', () => {
  let test: TestApp;
  let admin: ApiClient;
  const open: SystemClient[] = [];

  beforeAll(async () => {
    test = await startTestApp();
    ({ admin } = await signedInAdmin(test));
  }, 60_000);
  afterEach(() => {
    for (const socket of open.splice(0)) socket.close();
  });
  afterAll(async () => test?.close());

  async function listen(client: ApiClient) {
    const socket = await openSystemSocket(test.base, client);
    open.push(socket);
    const staff: string[] = [];
    const updates: AccountUpdatedPush[] = [];
    socket.on('banStatusUpdated', (push: BanStatusUpdatedPush) => staff.push(push.eventId));
    socket.on('accountUpdated', (push) => updates.push(push));
    return { socket, staff, updates };
  }

  async function toStaff(): Promise<string> {
    const id = randomUUID();
    await test.app.get(Realtime).toRole('staff', 'banStatusUpdated', { userId: randomUUID(), isBanned: false }, id);
    return id;
  }

  /** Pushes to the user until the socket hears one: it registers (and reads its access) a moment after it connects. */
  async function registered(userId: string, heard: string[]) {
    await expect
      .poll(
        async () => {
          const id = randomUUID();
          await test.app.get(Realtime).toUser(userId, 'banStatusUpdated', { userId, isBanned: false }, id);
          await new Promise((r) => setTimeout(r, 100));
          return heard.includes(id);
        },
        { timeout: 10_000 },
      )
      .toBe(true);
  }

  async function hearsStaff(staff: string[]) {
    await expect
      .poll(
        async () => {
          const id = await toStaff();
          await new Promise((r) => setTimeout(r, 100));
          return staff.includes(id);
        },
        { timeout: 10_000 },
      )
      .toBe(true);
  }

  async function missesStaff(staff: string[]) {
    const id = await toStaff();
    await new Promise((r) => setTimeout(r, 400));
    expect(staff).not.toContain(id);
  }

  it('a password thief who turns two-factor login on is still kept out; the owner signing in with the code is let in', async () => {
    const person = await videoUser(test.base, { firstName: 'Mona' });
    const meta = { commandId: randomUUID(), correlationId: randomUUID(), actor: 'system', now: new Date() };
    await test.app.get(CommandBus).execute(new SetRole(person.user._id, 'moderator', 'night shift', meta));
    // The thief: the password alone, on a moderator account without two-factor login.
    const thief = new ApiClient(test.base);
    const login = await thief.call('POST', '/auth/login', {
      emailAddress: person.user.emailAddress,
      password: VIDEO_USER_PASSWORD,
    });
    expect(login.status).toBe(200);
    expect((login.body as UserInfo).signedInWithCode).toBe(false);
    expect((await thief.call('GET', '/dash/users')).body).toMatchObject({
      statusCode: 403,
      message: 'Turn on two-factor login to use the dashboard.',
    });
    expect((await thief.call('POST', '/user/enable-twofac')).status).toBe(200);
    expect((await thief.call('GET', '/dash/users')).body).toMatchObject({ statusCode: 403, message: CODE_SESSION });
    expect((await thief.call('GET', '/admin/reports')).body).toMatchObject({ statusCode: 403, message: CODE_SESSION });
    expect((await thief.call('GET', '/auth/user-info')).body).toMatchObject({
      twoFactorEnabled: true,
      signedInWithCode: false,
    });
    // A new access token (refresh) is no way in either.
    expect((await thief.call('POST', '/auth/refresh-token')).status).toBe(200);
    expect((await thief.call('GET', '/dash/users')).status).toBe(403);
    // Nor the socket: it is the user's (its own pushes reach it), not staff's.
    const thiefSocket = await listen(thief);
    await registered(person.user._id, thiefSocket.staff);
    await missesStaff(thiefSocket.staff);

    // The owner signs in with the code mailed to them: the dashboard opens, and stays open across a refresh.
    const owner = new ApiClient(test.base);
    await signInWithCode(owner, person.user.emailAddress, VIDEO_USER_PASSWORD, devOutbox(test.base));
    expect((await owner.call('GET', '/dash/users')).status).toBe(200);
    expect((await owner.call('GET', '/auth/user-info')).body).toMatchObject({ signedInWithCode: true });
    expect((await owner.call('POST', '/auth/refresh-token')).status).toBe(200);
    expect((await owner.call('GET', '/dash/users')).status).toBe(200);
    expect((await owner.call('GET', '/auth/user-info')).body).toMatchObject({ signedInWithCode: true });
    const ownerSocket = await listen(owner);
    await hearsStaff(ownerSocket.staff);
    // The thief's socket still hears nothing of staff's.
    await missesStaff(thiefSocket.staff);

    // The session's start records how it began.
    const started = await test.db
      .selectFrom('events')
      .select('data')
      .where('type', '=', 'SessionStarted')
      .orderBy('seq', 'desc')
      .limit(20)
      .execute();
    expect(started.map((e) => (e.data as { signedInWithCode?: boolean }).signedInWithCode)).toContain(true);
  });

  it('a banned moderator stops hearing staff pushes at once, hears none after reconnecting, and again once unbanned', async () => {
    const { moderator, moderatorId } = await signedInModerator(test);
    const mona = await listen(moderator);
    await hearsStaff(mona.staff);
    const socketId = mona.socket.id;

    const banned = await admin.call('POST', `/admin/users/${moderatorId}/ban`, {
      reason: 'Leaked a report',
      level: 'moderate',
      penalty: { kind: 'restriction', days: 1 },
    });
    expect(banned.status).toBe(201);
    const { caseId } = banned.body as { caseId: string };
    await eventually(
      () => mona.updates.length > 0,
      10_000,
      () => 'accountUpdated after the ban',
    );
    await missesStaff(mona.staff);
    expect(mona.socket.id).toBe(socketId);

    mona.socket.close();
    const again = await listen(moderator);
    await registered(moderatorId, again.staff);
    await missesStaff(again.staff);

    expect((await admin.call('POST', `/admin/bans/${caseId}/unban`, { reason: 'Cleared' })).status).toBe(200);
    await hearsStaff(again.staff);
  });

  it("lets only staff signed in with the code, or the person, read someone's ban info", async () => {
    const bob = await videoUser(test.base, { firstName: 'Bob' });
    const path = `/user/ban-info/${bob.user._id}`;
    expect((await bob.api.call('GET', path)).status).toBe(200);
    expect((await admin.call('GET', path)).status).toBe(200);
    const { moderator } = await signedInModerator(test);
    expect((await moderator.call('GET', path)).status).toBe(200);

    // An admin (by role) whose session was started with the password alone, two-factor on or off.
    const ada = await videoUser(test.base, { firstName: 'Ada' });
    const meta = { commandId: randomUUID(), correlationId: randomUUID(), actor: 'system', now: new Date() };
    await test.app.get(CommandBus).execute(new SetRole(ada.user._id, 'admin', 'second admin', meta));
    expect((await ada.api.call('GET', path)).status).toBe(403);
    expect((await ada.api.call('POST', '/user/enable-twofac')).status).toBe(200);
    expect((await ada.api.call('GET', path)).status).toBe(403);
  });
});

/** spec 6 Admin: Serendip always keeps an admin. */
describe('the last admin', () => {
  let test: TestApp;
  beforeAll(async () => {
    test = await startTestApp();
  }, 60_000);
  afterAll(async () => test?.close());

  const admins = async () =>
    (await test.db.selectFrom('users').select('user_id').where('role', '=', 'admin').execute()).map((r) => r.user_id);

  it('two admins demoting each other at once leave one admin; the last is never demoted', async () => {
    const a = await signedInAdmin(test);
    const b = await signedInAdmin(test);
    const [ab, ba] = await Promise.all([
      a.admin.call('POST', `/dash/users/${b.adminId}/role`, { role: 'user', reason: 'coup' }),
      b.admin.call('POST', `/dash/users/${a.adminId}/role`, { role: 'moderator', reason: 'counter-coup' }),
    ]);
    expect([ab.status, ba.status].filter((s) => s === 200)).toHaveLength(1);
    const refused = ab.status === 200 ? ba : ab;
    expect([403, 409]).toContain(refused.status);
    expect(await admins()).toHaveLength(1);

    // The operator's command line is refused too: the last admin stays.
    const [last] = await admins();
    const meta = { commandId: randomUUID(), correlationId: randomUUID(), actor: 'cli', now: new Date() };
    await expect(test.app.get(CommandBus).execute(new SetRole(last!, 'user', 'oops', meta))).rejects.toMatchObject({
      message: 'Serendip needs at least one admin.',
    });
    expect(await admins()).toEqual([last]);
  });

  it('ADMIN_EMAIL is an admin again at the next start after its role was taken', async () => {
    const a = await signedInAdmin(test);
    const b = await signedInAdmin(test);
    expect(
      (await a.admin.call('POST', `/dash/users/${b.adminId}/role`, { role: 'user', reason: 'taken' })).status,
    ).toBe(200);
    expect(
      (await test.db.selectFrom('users').select('role').where('user_id', '=', b.adminId).executeTakeFirst())?.role,
    ).toBe('user');
    // The next start runs the bootstrap again for the same address.
    expect(await ensureAdmin(test.app, b.emailAddress, b.password)).toBe(b.adminId);
    await expect
      .poll(
        async () =>
          (await test.db.selectFrom('users').select('role').where('user_id', '=', b.adminId).executeTakeFirst())?.role,
      )
      .toBe('admin');
  });
});
