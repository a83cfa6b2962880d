import { randomUUID } from 'node:crypto';
import type { AccountUpdatedPush, BanStatusUpdatedPush } from '@serendip/proto';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { Realtime } from '../platform/realtime/realtime.js';
import { signedInAdmin, signedInModerator, signInWithCode } from '../test-support/admins.js';
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

/**
 * spec 6 Admin: a role given or taken (or two-factor login, which staff need, turned off) takes effect on the person's
 * open system sockets at once, without a reload: the staff pushes (the dashboard's live counters, reports with names)
 * start or stop, and the page is told to read user info again.
 */
describe('staff roles on open sockets', () => {
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

  /** A system socket as a page opens it, recording the staff pushes and account updates it hears. */
  async function listen(client: ApiClient) {
    const socket = await openSystemSocket(test.base, client);
    open.push(socket);
    const staff: string[] = [];
    const updates: AccountUpdatedPush[] = [];
    let disconnects = 0;
    socket.on('banStatusUpdated', (push: BanStatusUpdatedPush) => staff.push(push.eventId));
    socket.on('accountUpdated', (push) => updates.push(push));
    socket.on('disconnect', () => disconnects++);
    return { socket, staff, updates, disconnects: () => disconnects };
  }

  /** One push to every staff socket; its id. */
  async function toStaff(): Promise<string> {
    const id = randomUUID();
    await test.app.get(Realtime).toRole('staff', 'banStatusUpdated', { userId: randomUUID(), isBanned: false }, id);
    return id;
  }

  /** Pushes to the user until the socket hears one: it registers a moment after it connects. */
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

  /** Pushes to staff until the socket hears one (it registers a moment after it connects). */
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

  /** A staff push sent now does not reach the socket (given time to arrive). */
  async function missesStaff(staff: string[]) {
    const id = await toStaff();
    await new Promise((r) => setTimeout(r, 400));
    expect(staff).not.toContain(id);
  }

  const setRole = (userId: string, role: string) =>
    admin.call('POST', `/dash/users/${userId}/role`, { role, reason: 'shift change' });

  it('a moderator whose role is taken stops hearing staff pushes at once, and the page is told', async () => {
    const { moderator, moderatorId } = await signedInModerator(test);
    const mona = await listen(moderator);
    await hearsStaff(mona.staff);
    const socketId = mona.socket.id;

    expect((await setRole(moderatorId, 'user')).status).toBe(200);
    await eventually(
      () => mona.updates.length > 0,
      10_000,
      () => 'accountUpdated',
    );
    expect(mona.updates).toContainEqual({ eventId: expect.any(String), userId: moderatorId });
    await missesStaff(mona.staff);
    // The same connection: nothing reconnected to get there.
    expect(mona.socket.id).toBe(socketId);
    expect(mona.disconnects()).toBe(0);
    // And the page's user info says so.
    expect((await moderator.call('GET', '/auth/user-info')).body).toMatchObject({ role: 'user' });
  });

  it('a user given the moderator role starts hearing staff pushes without reconnecting', async () => {
    const person = await videoUser(test.base, { firstName: 'Nico' });
    expect((await person.api.call('POST', '/user/enable-twofac')).status).toBe(200);
    // Staff pushes reach a session started with the mailed code only (spec 6 Admin).
    const signedIn = new ApiClient(test.base);
    await signInWithCode(signedIn, person.user.emailAddress, VIDEO_USER_PASSWORD, devOutbox(test.base));
    const nico = await listen(signedIn);
    // Registered (its own pushes reach it), yet no staff push does.
    await registered(person.user._id, nico.staff);
    await missesStaff(nico.staff);
    const before = nico.updates.length;

    expect((await setRole(person.user._id, 'moderator')).status).toBe(200);
    await eventually(
      () => nico.updates.length > before,
      10_000,
      () => 'accountUpdated after the grant',
    );
    const id = await toStaff();
    await eventually(
      () => nico.staff.includes(id),
      5_000,
      () => 'the staff push after the grant',
    );
    expect(nico.disconnects()).toBe(0);
  });

  it('a moderator who turns two-factor login off stops hearing staff pushes, and hears them again once it is on', async () => {
    const { moderator } = await signedInModerator(test);
    const mona = await listen(moderator);
    await hearsStaff(mona.staff);

    const off = await moderator.call('POST', '/user/disable-twofac', { currentPassword: VIDEO_USER_PASSWORD });
    expect(off.status).toBe(200);
    await eventually(
      () => mona.updates.length > 0,
      10_000,
      () => 'accountUpdated after two-factor went off',
    );
    await missesStaff(mona.staff);

    expect((await moderator.call('POST', '/user/enable-twofac')).status).toBe(200);
    await eventually(
      () => mona.updates.length > 1,
      10_000,
      () => 'accountUpdated after two-factor went on',
    );
    const id = await toStaff();
    await eventually(
      () => mona.staff.includes(id),
      5_000,
      () => 'the staff push once two-factor is on',
    );
    expect(mona.disconnects()).toBe(0);
  });

  it('ends on the last of quick changes: taken, given, taken again', async () => {
    const { moderator, moderatorId } = await signedInModerator(test);
    const mona = await listen(moderator);
    await hearsStaff(mona.staff);

    for (const role of ['user', 'admin', 'user']) expect((await setRole(moderatorId, role)).status).toBe(200);
    await eventually(
      () => mona.updates.length >= 3,
      10_000,
      () => 'three accountUpdated',
    );
    await missesStaff(mona.staff);
  });
});
