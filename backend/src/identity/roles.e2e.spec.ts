import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signedInAdmin, signInWithCode } from '../test-support/admins.js';
import { ApiClient } from '../test-support/api-client.js';
import { startTestApp, type TestApp } from '../test-support/test-app.js';
import { devOutbox, VIDEO_USER_PASSWORD, videoUser } from '../test-support/video-users.js';

/** spec 6 Admin: an admin gives and takes staff roles; each change is an event with who and why. */
describe('staff roles', () => {
  let test: TestApp;
  let admin: ApiClient;
  let adminId: string;

  beforeAll(async () => {
    test = await startTestApp();
    ({ admin, adminId } = await signedInAdmin(test));
  });
  afterAll(async () => test?.close());

  const setRole = (client: ApiClient, userId: string, body: unknown) =>
    client.call('POST', `/dash/users/${userId}/role`, body);
  const roleEvents = async (userId: string) =>
    (await test.core.store.readAll({ maxCount: 10_000 }))
      .filter((e) => e.type.startsWith('Role') && (e.data as { userId: string }).userId === userId)
      .map((e) => ({ type: e.type, ...(e.data as { role?: string; grantedBy?: string }), actor: e.metadata.actor }));

  it('makes a user a moderator, then takes it away, each recorded with the reason and the admin', async () => {
    const mona = await videoUser(test.base, { firstName: 'Mona' });
    const id = mona.user._id;
    const granted = await setRole(admin, id, { role: 'moderator', reason: '  Runs the night shift ' });
    expect(granted).toMatchObject({ status: 200, body: { message: 'The account is now a moderator.' } });
    // The answer waits for the read model: the person's own user info says so at once.
    expect((await mona.api.call('GET', '/auth/user-info')).body).toMatchObject({ role: 'moderator', isAdmin: false });
    expect((await setRole(admin, id, { role: 'moderator', reason: 'again' })).body).toEqual({
      message: 'The account was already a moderator.',
    });
    expect((await setRole(admin, id, { role: 'user', reason: 'Left the team' })).status).toBe(200);
    expect((await mona.api.call('GET', '/auth/user-info')).body).toMatchObject({ role: 'user' });

    const events = await roleEvents(id);
    expect(events.map(({ type, role, actor }) => ({ type, role, actor }))).toEqual([
      { type: 'RoleGranted', role: 'moderator', actor: adminId },
      { type: 'RoleRevoked', role: 'moderator', actor: adminId },
    ]);
    expect(events[0]).toMatchObject({ grantedBy: adminId });
    expect(events[1]).toMatchObject({ revokedBy: adminId });
    expect(events[0]).toMatchObject({ reason: 'Runs the night shift' });
    // In the log itself the reason is sealed as personal data (typed by an admin about a person).
    const stored = await test.db.selectFrom('events').select('data').where('type', '=', 'RoleGranted').execute();
    expect(JSON.stringify(stored)).not.toContain('night shift');
    expect(JSON.stringify(stored)).toContain(id);
  });

  it('makes an admin, who then reaches admin routes once two-factor login is on and they sign in with the code', async () => {
    const ada = await videoUser(test.base, { firstName: 'Ada' });
    expect((await setRole(admin, ada.user._id, { role: 'admin', reason: 'Second admin' })).status).toBe(200);
    const media = () => ada.api.call('GET', '/admin/media');
    expect((await media()).body).toMatchObject({
      statusCode: 403,
      message: 'Turn on two-factor login to use the dashboard.',
    });
    expect((await ada.api.call('POST', '/user/enable-twofac')).status).toBe(200);
    // This session began with the password alone: the dashboard waits for one begun with the mailed code.
    expect((await media()).body).toMatchObject({
      statusCode: 403,
      message: 'Sign in again with the code we e-mail you to use the dashboard.',
    });
    const again = new ApiClient(test.base);
    await signInWithCode(again, ada.user.emailAddress, VIDEO_USER_PASSWORD, devOutbox(test.base));
    expect((await again.call('GET', '/admin/media')).status).toBe(200);
  });

  it('refuses one’s own role, a blank reason, an unknown role, and unknown or deleted accounts', async () => {
    expect((await setRole(admin, adminId, { role: 'user', reason: 'Stepping down' })).body).toMatchObject({
      statusCode: 403,
      message: 'You cannot change your own role.',
    });
    const someone = await videoUser(test.base);
    for (const [body, message] of [
      [{ role: 'moderator', reason: '   ' }, 'reason should not be empty'],
      [{ role: 'moderator' }, 'reason should not be empty'],
      [{ role: 'owner', reason: 'x' }, 'role must be one of user, moderator, admin'],
      [{ role: 'moderator', reason: 'x', extra: 1 }, 'property extra should not exist'],
    ] as const) {
      const res = await setRole(admin, someone.user._id, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.message).toContain(message);
    }
    expect((await setRole(admin, randomUUID(), { role: 'moderator', reason: 'x' })).status).toBe(404);
    expect((await setRole(admin, 'not-a-user', { role: 'moderator', reason: 'x' })).status).toBe(404);
    const gone = await videoUser(test.base);
    const deleted = await gone.api.call('POST', '/user/delete-account', { currentPassword: 'violet-harbour-42' });
    expect(deleted.status).toBe(200);
    await expect
      .poll(async () => (await setRole(admin, gone.user._id, { role: 'moderator', reason: 'x' })).status)
      .toBe(404);
    expect(await roleEvents(gone.user._id)).toEqual([]);
  });
});
