import { AUTH_PATHS, FEED_ERRORS, FEED_PATHS, type NotificationView } from '@serendip/proto';
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { renderApp } from '../../test-support/render-app';
import {
  aUser,
  inTurn,
  rememberSessionInThisBrowser,
  reply,
  resetBrowser,
  serveFakeApi,
} from '../auth/auth-test-support';
import type { NotificationsApi } from './notifications-api';
import { NOTIFICATION_SOUNDS_KEY, notificationSoundsOn } from './notification-sounds';
import { aNotification, aPage, fakeNotificationsApi, fakeSounds } from './notifications-test-support';

let pushes = 0;

function signedInApp(path: string, api: NotificationsApi, sounds = fakeSounds()) {
  const server = serveFakeApi().on('GET', AUTH_PATHS.userInfo, reply(200, aUser()));
  rememberSessionInThisBrowser();
  const app = renderApp(path, { services: { notifications: { api, sounds } } });
  const push = (notification: NotificationView) =>
    act(() => {
      pushes += 1;
      app.socket.serverPushes({ event: 'newNotification', payload: { ...notification, eventId: `ui-${pushes}` } });
    });
  // Once the page is up for the user: the socket is listened to by then, as a real one connects later.
  const connect = async () => {
    await bell();
    await import('./notifications.saga'); // the launcher's chunk: running once this settles
    act(() => app.socket.serverConnects());
  };
  return { ...app, push, connect, server };
}

const bell = () => screen.findByRole('button', { name: /^Notifications, / });

describe('the bell, the notifications page and the overlay (spec 2, 4)', () => {
  let logged: ReturnType<typeof vi.spyOn>;
  beforeEach(() => {
    logged = vi.spyOn(console, 'error').mockImplementation(() => undefined);
  });
  afterEach(() => {
    logged.mockRestore();
    resetBrowser();
  });

  it('shows the unread count; the dropdown lists the latest, opens one and marks it read, and marks all read', async () => {
    const appeal = aNotification({ kind: 'appeal-approved', title: 'Your appeal was approved', link: '/appeal' });
    const older = aNotification({ title: 'Welcome aboard', read: true, createdAt: '2026-01-01T00:00:00Z' });
    const other = aNotification({ title: 'Report acted on', createdAt: '2026-01-02T00:00:00Z' });
    const api = fakeNotificationsApi([aPage([appeal, other, older])]);
    const { connect, router } = signedInApp('/settings', api);
    await connect();

    await waitFor(async () => expect((await bell()).textContent).toContain('2'));
    expect((await bell()).getAttribute('aria-label') ?? (await bell()).textContent).toContain('2 unread');
    await userEvent.click(await bell());
    const menu = await screen.findByRole('menu');
    const items = within(menu)
      .getAllByRole('menuitem')
      .map((item) => item.textContent);
    expect(items[0]).toBe('Mark all read');
    expect(items.at(-1)).toBe('See all');
    const titles = [...menu.querySelectorAll('.notification-menu__item-title')].map((title) => title.textContent);
    expect(titles).toEqual(['Your appeal was approved', 'Report acted on', 'Welcome aboard']);
    expect(within(menu).getAllByRole('img', { name: 'Unread' })).toHaveLength(2);

    await userEvent.click(within(menu).getByText('Your appeal was approved'));
    expect(api.markRead).toHaveBeenCalledWith(appeal._id);
    await waitFor(() => expect(router.state.location.pathname).toBe('/appeal'));
    expect((await bell()).textContent).toContain('1 unread');

    await userEvent.click(await bell());
    await userEvent.click(await screen.findByRole('menuitem', { name: 'Mark all read' }));
    expect(api.markAllRead).toHaveBeenCalledOnce();
    await waitFor(() => expect(screen.queryByTestId('unread-count')).toBeNull());
    expect(within(screen.getByRole('menu')).queryAllByRole('img', { name: 'Unread' })).toHaveLength(0);
  });

  it('asks for the list when the dropdown opens before the socket ever connected', async () => {
    const api = fakeNotificationsApi([aPage([aNotification({ title: 'Fetched on opening' })])]);
    signedInApp('/settings', api);

    await userEvent.click(await bell());

    expect(await within(await screen.findByRole('menu')).findByText('Fetched on opening')).toBeDefined();
    expect(api.list).toHaveBeenCalledOnce();
  });

  it('counts a live arrival on the bell', async () => {
    const { connect, push } = signedInApp('/settings', fakeNotificationsApi([aPage([])]));
    await connect();
    expect((await bell()).textContent).toContain('none unread');

    push(aNotification({ title: 'Your ban ended' }));

    await waitFor(async () => expect(screen.getByTestId('unread-count').textContent).toBe('1'));
  });

  it("lists Notifications with the unread count in the phone's menu", async () => {
    const { connect } = signedInApp('/settings', fakeNotificationsApi([aPage([aNotification(), aNotification()])]));
    await connect();
    await waitFor(async () => expect((await bell()).textContent).toContain('2 unread'));

    await userEvent.click(screen.getByRole('button', { name: 'Menu' }));

    const item = await screen.findByRole('link', { name: /^Notifications/ });
    expect(item.textContent?.trim()).toBe('Notifications2 unread');
    expect(item.getAttribute('href')).toBe('/notifications');
  });

  it('covers the app with a forced-open one (live) until OK, which marks it read; then the next waiting one', async () => {
    const waiting = aNotification({ forceOpen: true, title: 'New community guidelines', description: 'Read them.' });
    const api = fakeNotificationsApi([aPage([waiting])], [waiting]);
    const { connect, push } = signedInApp('/settings', api);
    await connect();
    const first = await screen.findByRole('alertdialog', { name: 'New community guidelines' });
    push(
      aNotification({
        forceOpen: true,
        title: 'Scheduled maintenance',
        description: 'Matching pauses at 22:00 UTC.',
        AdminAnnouncement: 'Thanks for bearing with us!',
      }),
    );

    await userEvent.click(within(first).getByRole('button', { name: 'OK' }));

    expect(api.markForceAsRead).toHaveBeenCalledWith(waiting._id);
    const next = await screen.findByRole('alertdialog', { name: 'Scheduled maintenance' });
    expect(next.textContent).toContain('Matching pauses at 22:00 UTC.');
    expect(next.textContent).toContain('Thanks for bearing with us!');
    await userEvent.click(within(next).getByRole('button', { name: 'OK' }));
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
  });

  it("shows a removed comment's notice for kind 'comment-removed'", async () => {
    const removed = aNotification({
      kind: 'comment-removed',
      forceOpen: true,
      title: 'Comment Removed',
      details: { text: 'you are all idiots', postedAt: '2026-11-20T18:30:00Z' },
    });
    const api = fakeNotificationsApi([aPage([removed])], [removed]);
    const { connect } = signedInApp('/settings', api);
    await connect();

    const dialog = await screen.findByRole('alertdialog', { name: 'Comment Removed' });
    expect(dialog.textContent).toContain('you are all idiots');
    await userEvent.click(within(dialog).getByRole('button', { name: 'OK' }));
    expect(api.markForceAsRead).toHaveBeenCalledWith(removed._id);
  });

  it('appeals a removed comment from its notice: sent with the explanation, then done as with OK', async () => {
    const removed = aNotification({
      kind: 'comment-removed',
      forceOpen: true,
      title: 'Comment Removed',
      details: {
        text: 'what a f u c k i n g idiot',
        postedAt: '2026-11-20T18:30:00Z',
        categories: ['Profanity'],
        removedId: 'comment-9',
        postId: 'post-1',
      },
    });
    const api = fakeNotificationsApi([aPage([removed])], [removed]);
    const { connect, server } = signedInApp('/settings', api);
    server.on(
      'POST',
      FEED_PATHS.appealRemoval('comment-9'),
      inTurn(reply(503, { statusCode: 503, message: 'Service Unavailable' }), reply(201, { message: 'Appealed' })),
    );
    await connect();

    const dialog = await screen.findByRole('alertdialog', { name: 'Comment Removed' });
    expect(within(dialog).getByText('Found in your comment: Profanity')).toBeDefined();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Appeal' }));
    await userEvent.type(within(dialog).getByRole('textbox', { name: 'Your appeal' }), 'I was quoting a song.');
    // A failure says so and keeps the notice and the explanation for another try.
    await userEvent.click(within(dialog).getByRole('button', { name: 'Submit Appeal' }));
    expect(await screen.findByText('Failed to submit appeal.')).toBeDefined();
    expect(api.markForceAsRead).not.toHaveBeenCalled();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Submit Appeal' }));

    expect(await screen.findByText('Your appeal was sent.')).toBeDefined();
    expect(server.requestsTo('POST', FEED_PATHS.appealRemoval('comment-9')).map((r) => r.body)).toEqual([
      { explanation: 'I was quoting a song.' },
      { explanation: 'I was quoting a song.' },
    ]);
    expect(api.markForceAsRead).toHaveBeenCalledWith(removed._id);
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
  });

  it("says the server's reason when an appeal is refused (appealed already)", async () => {
    const removed = aNotification({
      kind: 'comment-removed',
      forceOpen: true,
      title: 'Comment Removed',
      details: { text: 'idiot', postedAt: '2026-11-20T18:30:00Z', categories: [], removedId: 'reply-3' },
    });
    const api = fakeNotificationsApi([aPage([removed])], [removed]);
    const { connect, server } = signedInApp('/settings', api);
    server.on(
      'POST',
      FEED_PATHS.appealRemoval('reply-3'),
      reply(409, { statusCode: 409, message: FEED_ERRORS.alreadyAppealed }),
    );
    await connect();

    const dialog = await screen.findByRole('alertdialog', { name: 'Comment Removed' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Appeal' }));
    await userEvent.type(within(dialog).getByRole('textbox', { name: 'Your appeal' }), 'Please look again.');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Submit Appeal' }));

    expect(await screen.findByText('You have appealed this removal already.')).toBeDefined();
    expect(screen.getByRole('alertdialog', { name: 'Comment Removed' })).toBeDefined();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await userEvent.click(within(dialog).getByRole('button', { name: 'OK' }));
    expect(api.markForceAsRead).toHaveBeenCalledWith(removed._id);
  });

  it("opens a feed notification's post from the notifications page", async () => {
    const commented = aNotification({
      kind: 'post-commented',
      title: 'Grace commented on your post',
      link: '/feed/post/post-7',
    });
    const api = fakeNotificationsApi([aPage([commented])]);
    const { router, server } = signedInApp('/notifications', api);
    server.on('GET', FEED_PATHS.post('post-7'), reply(404, { statusCode: 404, message: FEED_ERRORS.postNotFound }));

    await userEvent.click(await screen.findByRole('button', { name: /Grace commented on your post/ }));

    expect(api.markRead).toHaveBeenCalledWith(commented._id);
    await waitFor(() => expect(router.state.location.pathname).toBe('/feed/post/post-7'));
    expect(await screen.findByText('This post no longer exists.')).toBeDefined();
  });

  it('lists read and unread on the page, with Load More until the last page', async () => {
    const first = Array.from({ length: 3 }, (_, i) => aNotification({ title: `New ${i}`, read: i === 2 }));
    const second = [aNotification({ title: 'Oldest', read: true, createdAt: '2025-01-01T00:00:00Z' })];
    const api = fakeNotificationsApi([aPage(first, 1, 2), aPage(second, 2, 2)]);
    signedInApp('/notifications', api);

    expect(await screen.findByRole('heading', { level: 1, name: 'Notifications' })).toBeDefined();
    await screen.findByText('New 0');
    expect(screen.getByText('2 unread')).toBeDefined();
    await userEvent.click(screen.getByRole('button', { name: 'Load More' }));
    await screen.findByText('Oldest');
    expect(screen.queryByRole('button', { name: 'Load More' })).toBeNull();

    await userEvent.click(screen.getByRole('button', { name: /Mark all read/ }));
    expect(await screen.findByText('You are all caught up.')).toBeDefined();
    expect(screen.queryAllByRole('img', { name: 'Unread' })).toHaveLength(0);
  });

  it('says when there are none, and offers to try again when they failed to load', async () => {
    const api = fakeNotificationsApi([aPage([])]);
    api.list.mockRejectedValueOnce(new TypeError('Failed to fetch'));
    signedInApp('/notifications', api);

    await userEvent.click(await screen.findByRole('button', { name: 'Try again' }));

    expect(await screen.findByText('No notifications yet.')).toBeDefined();
    expect(logged).toHaveBeenCalledWith('Notifications failed to load', expect.any(TypeError));
  });

  it("keeps the 'Notification sounds' switch in this browser", async () => {
    serveFakeApi().on('GET', AUTH_PATHS.userInfo, reply(200, aUser()));
    rememberSessionInThisBrowser();
    renderApp('/settings');

    const sounds = await screen.findByRole('switch', { name: 'Notification sounds' });
    expect(sounds.getAttribute('aria-checked')).toBe('true');
    await userEvent.click(sounds);
    expect(sounds.getAttribute('aria-checked')).toBe('false');
    expect(window.localStorage.getItem(NOTIFICATION_SOUNDS_KEY)).toBe('off');
    expect(notificationSoundsOn()).toBe(false);
  });
});
