import { randomUUID } from 'node:crypto';
import {
  ANNOUNCEMENT_LIMITS,
  type NewNotificationPush,
  NOTIFICATION_PAGE_SIZE,
  NOTIFICATION_PATHS,
  type NotificationView,
} from '@serendip/proto';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { signedInAdmin } from '../test-support/admins.js';
import type { ApiClient } from '../test-support/api-client.js';
import { startTestApp, type TestApp } from '../test-support/test-app.js';
import { openSystemSocket, type SystemClient, type VideoUser, videoUser } from '../test-support/video-users.js';

/** NOTIFICATION_PATHS name the whole path; the test client adds /api itself. */
const path = (full: string) => full.replace(/^\/api/, '');

/**
 * Notifications over the real app (spec 3 Notification, 4 "Notifications", 7): each person's list, forced-open list
 * and read state are theirs alone; admins announce to everyone (one row, however many users) or to one user; new ones
 * arrive live on the system socket.
 */
describe('notifications: lists, read state, announcements', () => {
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
  afterAll(async () => {
    await test?.close();
  });

  const person = (firstName: string) => videoUser(test.base, { firstName });

  async function announce(body: Record<string, unknown>) {
    const res = await admin.call('POST', path(NOTIFICATION_PATHS.announce), body);
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    return (res.body as { notificationId: string }).notificationId;
  }

  async function listOf(user: VideoUser, page?: number) {
    const res = await user.api.call(
      'GET',
      path(NOTIFICATION_PATHS.list(user.user._id)) + (page ? `?page=${page}` : ''),
    );
    expect(res.status).toBe(200);
    return {
      items: res.body as NotificationView[],
      total: Number(res.headers.get('X-Total-Count')),
      pages: Number(res.headers.get('X-Total-Pages')),
      unread: Number(res.headers.get('X-Unread-Count')),
    };
  }

  async function forcedOf(user: VideoUser) {
    const res = await user.api.call('GET', path(NOTIFICATION_PATHS.forceOpen(user.user._id)));
    expect(res.status).toBe(200);
    return res.body as NotificationView[];
  }

  /** A signed-in page's system socket, once the server delivers to it. */
  async function pageOf(user: VideoUser) {
    const socket = await openSystemSocket(test.base, user.api);
    open.push(socket);
    const got: NewNotificationPush[] = [];
    socket.on('newNotification', (n) => void got.push(n));
    // The server registers a socket a moment after `connect`.
    await new Promise((r) => setTimeout(r, 300));
    return got;
  }

  it("refuses another user's list and forced-open list (403, before the query is even read), and a guest (401)", async () => {
    const [ada, bob] = [await person('Ada'), await person('Bob')];
    await announce({ title: 'For Bob', description: 'Only Bob reads this', forceOpen: true, userId: bob.user._id });

    for (const url of [
      NOTIFICATION_PATHS.list(bob.user._id),
      `${NOTIFICATION_PATHS.list(bob.user._id)}?page=not-a-number`,
      NOTIFICATION_PATHS.forceOpen(bob.user._id),
      NOTIFICATION_PATHS.list('not-a-user'),
      NOTIFICATION_PATHS.forceOpen(randomUUID()),
    ]) {
      const res = await ada.api.call('GET', path(url));
      expect(`${url} -> ${res.status}`).toBe(`${url} -> 403`);
      expect(res.body).toMatchObject({ message: 'You can only see your own notifications.' });
    }
    const guest = await fetch(`${test.base}${NOTIFICATION_PATHS.list(bob.user._id)}`);
    expect(guest.status).toBe(401);
    expect((await listOf(bob)).items.map((n) => n.title)).toEqual(['For Bob']);
    expect((await listOf(ada)).items.map((n) => n.title)).not.toContain('For Bob');
  });

  it("refuses to mark another user's notification read or confirmed (404, as for one that does not exist)", async () => {
    const [ada, bob] = [await person('Ada'), await person('Bob')];
    const id = await announce({ title: 'Hi Bob', description: 'Yours', forceOpen: true, userId: bob.user._id });
    for (const url of [
      NOTIFICATION_PATHS.markRead(id),
      NOTIFICATION_PATHS.markForceAsRead(id),
      NOTIFICATION_PATHS.markRead(randomUUID()),
      NOTIFICATION_PATHS.markRead('junk'),
    ]) {
      expect(`${url} -> ${(await ada.api.call('PUT', path(url))).status}`).toBe(`${url} -> 404`);
    }
    // Bob's stays unread and waiting for his OK.
    expect((await listOf(bob)).unread).toBe(1);
    expect((await forcedOf(bob)).map((n) => n._id)).toEqual([id]);
  });

  it('pages a list newest first, 20 a page, with the totals and the unread count in headers', async () => {
    const ada = await person('Ada');
    for (let i = 1; i <= NOTIFICATION_PAGE_SIZE + 5; i++) {
      await announce({ title: `News ${i}`, description: 'Paged', forceOpen: false, userId: ada.user._id });
    }
    const first = await listOf(ada);
    expect(first).toMatchObject({ total: 25, pages: 2, unread: 25 });
    expect(first.items).toHaveLength(NOTIFICATION_PAGE_SIZE);
    expect(first.items[0]).toMatchObject({ title: 'News 25', kind: 'announcement', read: false, forceOpen: false });
    const second = await listOf(ada, 2);
    expect(second.items.map((n) => n.title)).toEqual(['News 5', 'News 4', 'News 3', 'News 2', 'News 1']);
    expect((await listOf(ada, 3)).items).toEqual([]);
    for (const bad of ['0', '-1', '1.5', 'abc']) {
      const res = await ada.api.call('GET', `${path(NOTIFICATION_PATHS.list(ada.user._id))}?page=${bad}`);
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ message: ['page: must be a whole number from 1'] });
    }
  });

  it('counts unread ones, marks one read (once), then all read; a forced-open one waits for its OK', async () => {
    const ada = await person('Ada');
    const one = await announce({ title: 'One', description: 'd', forceOpen: false, userId: ada.user._id });
    await announce({ title: 'Two', description: 'd', forceOpen: false, userId: ada.user._id });
    const forced = await announce({ title: 'Forced', description: 'd', forceOpen: true, userId: ada.user._id });
    expect((await listOf(ada)).unread).toBe(3);

    expect((await ada.api.call('PUT', path(NOTIFICATION_PATHS.markRead(one)))).status).toBe(204);
    expect((await ada.api.call('PUT', path(NOTIFICATION_PATHS.markRead(one)))).status).toBe(204);
    const afterOne = await listOf(ada);
    expect(afterOne.unread).toBe(2);
    expect(afterOne.items.find((n) => n._id === one)).toMatchObject({ read: true });

    expect((await ada.api.call('PUT', path(NOTIFICATION_PATHS.markAllRead))).status).toBe(204);
    const afterAll = await listOf(ada);
    expect(afterAll.unread).toBe(1);
    expect(afterAll.items.filter((n) => !n.read).map((n) => n._id)).toEqual([forced]);
    expect((await forcedOf(ada)).map((n) => n._id)).toEqual([forced]);

    // Sent after "mark all read": unread.
    const later = await announce({ title: 'Later', description: 'd', forceOpen: false, userId: ada.user._id });
    expect((await listOf(ada)).items.find((n) => n._id === later)).toMatchObject({ read: false });
    expect((await listOf(ada)).unread).toBe(2);

    // Reading one writes one event; a repeat writes none.
    const inbox = await test.db
      .selectFrom('events')
      .select('type')
      .where('stream_id', '=', `notification-inbox-${ada.user._id}`)
      .orderBy('seq')
      .execute();
    expect(inbox.map((e) => e.type)).toEqual(['NotificationRead', 'AllNotificationsRead']);
  });

  it('records "mark all read" only when something unread would be covered: repeats cost nothing', async () => {
    const ada = await person('Ada');
    const inboxTypes = async () =>
      (
        await test.db
          .selectFrom('events')
          .select('type')
          .where('stream_id', '=', `notification-inbox-${ada.user._id}`)
          .execute()
      ).map((e) => e.type);
    // Nothing to read, and a forced-open one waits for its OK whatever "mark all read" says: nothing to record.
    await announce({ title: 'Forced', description: 'd', forceOpen: true, userId: ada.user._id });
    for (let i = 0; i < 5; i++) {
      expect((await ada.api.call('PUT', path(NOTIFICATION_PATHS.markAllRead))).status).toBe(204);
    }
    expect(await inboxTypes()).toEqual([]);
    await announce({ title: 'News', description: 'd', forceOpen: false, userId: ada.user._id });
    for (let i = 0; i < 5; i++) {
      expect((await ada.api.call('PUT', path(NOTIFICATION_PATHS.markAllRead))).status).toBe(204);
    }
    expect(await inboxTypes()).toEqual(['AllNotificationsRead']);
    expect((await listOf(ada)).unread).toBe(1);
  });

  it('shows a forced-open announcement to everyone until each user confirms it; OK is for good, and per user', async () => {
    const [ada, bob] = [await person('Ada'), await person('Bob')];
    const id = await announce({
      title: 'Maintenance tonight',
      description: 'Serendip will be down from 02:00 to 03:00 UTC.',
      adminAnnouncement: 'Thanks for your patience. - The team',
      forceOpen: true,
    });
    const expected = {
      _id: id,
      kind: 'announcement',
      title: 'Maintenance tonight',
      description: 'Serendip will be down from 02:00 to 03:00 UTC.',
      AdminAnnouncement: 'Thanks for your patience. - The team',
      forceOpen: true,
      read: false,
    };
    expect(await forcedOf(ada)).toEqual([expect.objectContaining(expected)]);
    expect(await forcedOf(bob)).toEqual([expect.objectContaining(expected)]);

    expect((await ada.api.call('PUT', path(NOTIFICATION_PATHS.markForceAsRead(id)))).status).toBe(204);
    expect((await ada.api.call('PUT', path(NOTIFICATION_PATHS.markForceAsRead(id)))).status).toBe(204);
    expect(await forcedOf(ada)).toEqual([]);
    expect((await listOf(ada)).items.find((n) => n._id === id)).toMatchObject({ read: true });
    // Bob has not said OK yet.
    expect((await forcedOf(bob)).map((n) => n._id)).toEqual([id]);

    // One notification, however many users; read state only for who read it.
    const rows = await test.db
      .selectFrom('notifications')
      .select('recipient_id')
      .where('notification_id', '=', id)
      .execute();
    expect(rows).toEqual([{ recipient_id: null }]);
    const reads = await test.db
      .selectFrom('notification_reads')
      .select('user_id')
      .where('notification_id', '=', id)
      .execute();
    expect(reads).toEqual([{ user_id: ada.user._id }]);

    // Someone who joins afterwards does not start with it.
    const newcomer = await person('Cleo');
    expect(await forcedOf(newcomer)).toEqual([]);
    expect((await listOf(newcomer)).items.map((n) => n._id)).not.toContain(id);
  });

  it("pushes a new notification live: one user's to their pages only, everyone's to every signed-in page, once", async () => {
    const [ada, bob] = [await person('Ada'), await person('Bob')];
    const [adaTab1, adaTab2, bobPage] = [await pageOf(ada), await pageOf(ada), await pageOf(bob)];

    const mine = await announce({ title: 'Just Ada', description: 'For one', forceOpen: false, userId: ada.user._id });
    await expect.poll(() => adaTab1.length + adaTab2.length).toBe(2);
    const everyone = await announce({ title: 'All hands', description: 'For all', forceOpen: true });
    await expect.poll(() => bobPage.length).toBe(1);
    await expect.poll(() => adaTab1.length).toBe(2);
    await new Promise((r) => setTimeout(r, 300));

    expect(adaTab1).toEqual([
      expect.objectContaining({ _id: mine, title: 'Just Ada', read: false, eventId: expect.any(String) }),
      expect.objectContaining({ _id: everyone, title: 'All hands', forceOpen: true }),
    ]);
    expect(adaTab2.map((n) => n._id)).toEqual([mine, everyone]);
    expect(bobPage.map((n) => n._id)).toEqual([everyone]);
  });

  it('lets only admins announce, and answers each wrong field with 400 naming it', async () => {
    const ada = await person('Ada');
    const body = { title: 'Hi', description: 'There', forceOpen: false };
    expect((await ada.api.call('POST', path(NOTIFICATION_PATHS.announce), body)).status).toBe(403);

    const wrong = async (b: unknown) => {
      const res = await admin.call('POST', path(NOTIFICATION_PATHS.announce), b);
      expect(res.status, JSON.stringify(res.body)).toBe(400);
      return (res.body as { message: string[] }).message;
    };
    expect(await wrong({ ...body, title: '   ' })).toEqual(['title: title is required']);
    expect(await wrong({ ...body, description: '' })).toEqual(['description: description is required']);
    expect(await wrong({ ...body, title: 'x'.repeat(ANNOUNCEMENT_LIMITS.title + 1) })).toEqual([
      'title: Too big: expected string to have <=120 characters',
    ]);
    expect(await wrong({ title: 'Hi', description: 'There' })).toEqual([
      'forceOpen: Invalid input: expected boolean, received undefined',
    ]);
    // Every wrong field at once, each named.
    expect(await wrong({ ...body, forceOpen: 'yes', adminAnnouncement: 5 })).toEqual([
      'adminAnnouncement: Invalid input: expected string, received number',
      'forceOpen: Invalid input: expected boolean, received string',
    ]);
    expect(await wrong({ ...body, userId: 'bob' })).toEqual(['userId: userId must be a user id']);
    expect(await wrong({ ...body, userId: randomUUID() })).toEqual(['userId: No such user']);
    // Nothing was sent to Ada by any of it.
    expect((await listOf(ada)).items).toEqual([]);
  });

  it("forgets a deleted account's notifications and read state; everyone's announcements stay", async () => {
    const ada = await person('Ada');
    const everyone = await announce({ title: 'To all', description: 'd', forceOpen: false });
    await announce({ title: 'SECRET for Ada', description: 'd', forceOpen: false, userId: ada.user._id });
    expect((await ada.api.call('PUT', path(NOTIFICATION_PATHS.markRead(everyone)))).status).toBe(204);
    const deleted = await ada.api.call('POST', '/user/delete-account', { currentPassword: 'violet-harbour-42' });
    expect(deleted.status).toBe(200);
    const left = async () =>
      JSON.stringify([
        await test.db.selectFrom('notifications').selectAll().where('recipient_id', '=', ada.user._id).execute(),
        await test.db.selectFrom('notification_reads').selectAll().where('user_id', '=', ada.user._id).execute(),
        await test.db.selectFrom('events').select('data').where('stream_id', 'like', 'notification-%').execute(),
      ]);
    await expect.poll(left, { timeout: 10_000 }).toMatch(/^\[\[\],\[\],/);
    expect(await left()).not.toContain('SECRET');
    expect(
      await test.db
        .selectFrom('notifications')
        .select('notification_id')
        .where('notification_id', '=', everyone)
        .execute(),
    ).toHaveLength(1);
  });
});
