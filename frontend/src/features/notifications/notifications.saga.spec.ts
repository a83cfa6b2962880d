import { AUTH_PATHS, type NotificationView } from '@serendip/proto';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { makeStore } from '../../app/store';
import { FakeSystemSocket } from '../../test-support/fake-system-socket';
import { aUser, rememberSessionInThisBrowser, reply, resetBrowser, serveFakeApi } from '../auth/auth-test-support';
import type { NotificationsApi } from './notifications-api';
import { notificationsActions } from './notifications.slice';
import { aNotification, aPage, fakeNotificationsApi, fakeSounds } from './notifications-test-support';

let pushes = 0;

/** The app's store with a signed-in user, a fake system socket and fake notification calls and sounds. */
async function signedInStore(api: NotificationsApi = fakeNotificationsApi([aPage([])]), sounds = fakeSounds()) {
  serveFakeApi().on('GET', AUTH_PATHS.userInfo, reply(200, aUser()));
  rememberSessionInThisBrowser();
  const socket = new FakeSystemSocket();
  const store = makeStore(undefined, { openSystemSocket: () => socket, notifications: { api, sounds } });
  await vi.waitFor(() => expect(store.getState().session.user).not.toBeNull());
  // The saga's chunk, asked for by the launcher at sign-in, is running once the same import settles here.
  await import('./notifications.saga');
  await Promise.resolve();
  const push = (payload: NotificationView | NotificationView[] | Record<string, unknown>) => {
    pushes += 1;
    const eventId = `event-${pushes}`;
    // spec 7: one object or an array; each element of an array carries its own event id.
    const withId = Array.isArray(payload)
      ? payload.map((item, i) => ({ ...item, eventId: `${eventId}.${i}` }))
      : { ...payload, eventId };
    socket.serverPushes({ event: 'newNotification', payload: withId as never });
  };
  return { store, socket, sounds, push, state: () => store.getState().notifications };
}

describe('notifications (spec 4 "Notifications", 7 newNotification, 8)', () => {
  let logged: ReturnType<typeof vi.spyOn>;
  beforeEach(() => {
    logged = vi.spyOn(console, 'error').mockImplementation(() => undefined);
  });
  afterEach(() => {
    logged.mockRestore();
    resetBrowser();
  });

  it('fetches the list and the forced-open ones when the socket connects, for the signed-in user', async () => {
    const older = aNotification({ forceOpen: true, title: 'Maintenance tonight' });
    const newer = aNotification({ forceOpen: true, title: 'New rules' });
    const listed = [aNotification({ read: true }), aNotification()];
    const api = fakeNotificationsApi([aPage(listed, 1, 3, 7)], [newer, older]);
    const { socket, state } = await signedInStore(api);
    expect(api.list).not.toHaveBeenCalled();

    socket.serverConnects();

    await vi.waitFor(() => expect(state().status).toBe('loaded'));
    expect(api.list).toHaveBeenCalledWith('user-1', 1);
    expect(api.forceOpen).toHaveBeenCalledWith('user-1');
    expect(state().unreadCount).toBe(7);
    expect(state().items.map((n) => n._id)).toEqual([listed[1]!._id, listed[0]!._id]);
    // The overlay shows the oldest first.
    await vi.waitFor(() => expect(state().forced.map((n) => n.title)).toEqual(['Maintenance tonight', 'New rules']));
  });

  it('puts a live one on top, counts it unread and plays one sound; a repeat of its id changes nothing', async () => {
    const listed = aNotification({ createdAt: '2026-11-20T10:00:00.000Z' });
    const { socket, push, sounds, state } = await signedInStore(fakeNotificationsApi([aPage([listed])]));
    socket.serverConnects();
    await vi.waitFor(() => expect(state().status).toBe('loaded'));

    const live = aNotification({ title: 'Your report was acted on', createdAt: '2026-11-21T10:00:00.000Z' });
    push(live);

    expect(state().items.map((n) => n.title)).toEqual(['Your report was acted on', listed.title]);
    expect(state().unreadCount).toBe(2);
    expect(sounds.play).toHaveBeenCalledTimes(1);

    push({ ...live, title: 'the same one, delivered again' });
    expect(state().items).toHaveLength(2);
    expect(state().unreadCount).toBe(2);
    expect(sounds.play).toHaveBeenCalledTimes(1);
  });

  it('takes an array (spec 7) with one sound for the lot, and drops what is not a notification', async () => {
    const { push, sounds, state } = await signedInStore();
    push([aNotification(), aNotification(), { _id: 'x', title: 'no kind' } as unknown as NotificationView]);
    expect(state().items).toHaveLength(2);
    expect(state().unreadCount).toBe(2);
    expect(sounds.play).toHaveBeenCalledTimes(1);

    push({ _id: 'broken' });
    expect(state().items).toHaveLength(2);
    expect(sounds.play).toHaveBeenCalledTimes(1);
  });

  it("plays nothing when 'Notification sounds' is off, and still lists the arrival", async () => {
    const { push, sounds, state } = await signedInStore(undefined, fakeSounds(false));
    push(aNotification());
    expect(state().unreadCount).toBe(1);
    expect(sounds.play).not.toHaveBeenCalled();
  });

  it('queues a forced-open arrival; OK marks it read on the server and it never comes back on this page', async () => {
    const api = fakeNotificationsApi([aPage([])]);
    const { store, socket, push, state } = await signedInStore(api);
    const forced = aNotification({ forceOpen: true, title: 'Scheduled maintenance' });
    push(forced);
    expect(state().forced.map((n) => n._id)).toEqual([forced._id]);

    store.dispatch(notificationsActions.forcedConfirmed(forced._id));

    expect(state().forced).toEqual([]);
    expect(state().unreadCount).toBe(0);
    expect(api.markForceAsRead).toHaveBeenCalledWith(forced._id);
    // A repeat, and a forced list that left the server before the OK did, both still hold it.
    push(forced);
    api.forceOpen.mockResolvedValue([forced]);
    socket.serverConnects();
    await vi.waitFor(() => expect(api.forceOpen).toHaveBeenCalled());
    await vi.waitFor(() => expect(state().status).toBe('loaded'));
    expect(state().forced).toEqual([]);
  });

  it('drops a repeat of a forced-open push that beat the list saying it was confirmed (at-least-once delivery)', async () => {
    const confirmed = aNotification({ forceOpen: true, read: true, title: 'Confirmed on another page' });
    const { socket, push, state } = await signedInStore(fakeNotificationsApi([aPage([confirmed])]));
    push({ ...confirmed, read: false });
    expect(state().forced).toHaveLength(1);

    socket.serverConnects();

    await vi.waitFor(() => expect(state().status).toBe('loaded'));
    expect(state().forced).toEqual([]);
    expect(state().unreadCount).toBe(0);
  });

  it('marks one read, then all, on the server and in the count', async () => {
    const listed = [aNotification(), aNotification(), aNotification()];
    const api = fakeNotificationsApi([aPage(listed)]);
    const { store, socket, state } = await signedInStore(api);
    socket.serverConnects();
    await vi.waitFor(() => expect(state().unreadCount).toBe(3));

    store.dispatch(notificationsActions.readRequested(listed[0]!._id));
    store.dispatch(notificationsActions.readRequested(listed[0]!._id));
    expect(state().unreadCount).toBe(2);
    expect(api.markRead).toHaveBeenCalledWith(listed[0]!._id);

    store.dispatch(notificationsActions.allReadRequested());
    expect(state().unreadCount).toBe(0);
    expect(state().items.every((n) => n.read)).toBe(true);
    expect(api.markAllRead).toHaveBeenCalledOnce();
  });

  it('loads the next pages on request, and none past the last', async () => {
    const first = [aNotification(), aNotification()];
    const second = [aNotification({ createdAt: '2026-01-01T00:00:00.000Z' })];
    const api = fakeNotificationsApi([aPage(first, 1, 2), aPage(second, 2, 2)]);
    const { store, socket, state } = await signedInStore(api);
    socket.serverConnects();
    await vi.waitFor(() => expect(state().status).toBe('loaded'));

    store.dispatch(notificationsActions.moreRequested());
    await vi.waitFor(() => expect(state().page).toBe(2));
    expect(state().items.at(-1)?._id).toBe(second[0]!._id);
    expect(state().items).toHaveLength(3);

    store.dispatch(notificationsActions.moreRequested());
    await Promise.resolve();
    expect(api.list).toHaveBeenCalledTimes(2);
  });

  it('only logs failed fetches and mark-reads (spec 8); the page may ask again', async () => {
    const api = fakeNotificationsApi([aPage([aNotification()])]);
    api.list.mockRejectedValueOnce(new Error('503'));
    api.markAllRead.mockRejectedValueOnce(new Error('offline'));
    const { store, socket, state } = await signedInStore(api);
    socket.serverConnects();

    await vi.waitFor(() => expect(state().status).toBe('failed'));
    expect(logged).toHaveBeenCalledWith('Notifications failed to load', expect.any(Error));

    store.dispatch(notificationsActions.latestRequested());
    await vi.waitFor(() => expect(state().status).toBe('loaded'));
    store.dispatch(notificationsActions.allReadRequested());
    await vi.waitFor(() =>
      expect(logged).toHaveBeenCalledWith('Notifications could not be marked read', expect.any(Error)),
    );
    expect(state().unreadCount).toBe(0);
  });

  it('keeps a push that came before its chunk loaded (it loads after sign-in)', async () => {
    const userInfo = serveFakeApi().hold('GET', AUTH_PATHS.userInfo);
    rememberSessionInThisBrowser();
    const sounds = fakeSounds();
    const socket = new FakeSystemSocket();
    const store = makeStore(undefined, {
      openSystemSocket: () => socket,
      notifications: { api: fakeNotificationsApi([aPage([])]), sounds },
    });
    // The socket is up while the session is still being asked.
    await vi.waitFor(() => expect(userInfo.waitingCount()).toBe(1));
    await vi.waitFor(() => expect(store.getState().system.socket.status).toBe('connecting'));
    socket.serverPushes({ event: 'newNotification', payload: { ...aNotification({ title: 'Early' }), eventId: 'e' } });
    expect(store.getState().notifications.items).toEqual([]);

    userInfo.answer(200, aUser());

    await vi.waitFor(() => expect(store.getState().notifications.items.map((n) => n.title)).toEqual(['Early']));
    expect(sounds.play).toHaveBeenCalledOnce();
  });

  it("forgets the user's notifications when they sign out", async () => {
    const { store, push, state } = await signedInStore();
    push(aNotification({ forceOpen: true }));
    store.dispatch({ type: 'session/signedOut' });
    expect(state().items).toEqual([]);
    expect(state().forced).toEqual([]);
  });
});
