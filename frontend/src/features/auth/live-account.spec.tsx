import { AUTH_PATHS } from '@serendip/proto';
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { renderApp } from '../../test-support/render-app';
import { aUser, inTurn, rememberSessionInThisBrowser, reply, resetBrowser, serveFakeApi } from './auth-test-support';
import '../../ui/test-polyfills';

const moderator = () => aUser({ role: 'moderator', isAdmin: false, twoFactorEnabled: true });
const accountUpdated = (eventId: string, userId = 'user-1') => ({
  event: 'accountUpdated' as const,
  payload: { eventId, userId },
});

/** spec 6 Admin: a staff role given or taken shows on the open page at once (accountUpdated on the system socket). */
describe('live account changes', () => {
  afterEach(resetBrowser);

  it('sends a moderator whose role was taken from the dashboard to / with Unauthorized, 404', async () => {
    const server = serveFakeApi().on(
      'GET',
      AUTH_PATHS.userInfo,
      inTurn(reply(200, moderator()), reply(200, aUser({ role: 'user', twoFactorEnabled: true }))),
    );
    rememberSessionInThisBrowser();
    const { socket, router } = renderApp('/dashboard/reports');
    expect(await screen.findByRole('heading', { name: 'Reports' })).toBeDefined();
    act(() => socket.serverConnects());

    act(() => socket.serverPushes(accountUpdated('access-1')));

    expect(await screen.findByText('Unauthorized, 404')).toBeDefined();
    await waitFor(() => expect(router.state.location.pathname).toBe('/'));
    expect(screen.queryByRole('heading', { name: 'Reports' })).toBeNull();
    expect(server.requestsTo('GET', AUTH_PATHS.userInfo)).toHaveLength(2);
  });

  it('shows the Dashboard link in the user menu of a user just made a moderator', async () => {
    serveFakeApi().on(
      'GET',
      AUTH_PATHS.userInfo,
      inTurn(reply(200, aUser({ twoFactorEnabled: true })), reply(200, moderator())),
    );
    rememberSessionInThisBrowser();
    const { socket, store } = renderApp('/');
    await screen.findByRole('button', { name: 'Account menu for Ada' });
    act(() => socket.serverConnects());

    act(() => socket.serverPushes(accountUpdated('access-2')));

    await waitFor(() => expect(store.getState().session.user?.role).toBe('moderator'));
    await userEvent.click(screen.getByRole('button', { name: 'Account menu for Ada' }));
    const menu = await screen.findByRole('menu');
    expect(within(menu).getByRole('menuitem', { name: 'Dashboard' })).toBeDefined();
  });

  it('reads the role again when the system socket comes back, so a change made while it was down still shows', async () => {
    serveFakeApi().on('GET', AUTH_PATHS.userInfo, reply(200, moderator()));
    rememberSessionInThisBrowser();
    const { socket, router } = renderApp('/dashboard/reports');
    expect(await screen.findByRole('heading', { name: 'Reports' })).toBeDefined();
    act(() => socket.serverConnects());
    act(() => socket.serverDrops());
    serveFakeApi().on('GET', AUTH_PATHS.userInfo, reply(200, aUser({ role: 'user', twoFactorEnabled: true })));

    act(() => socket.serverConnects());

    expect(await screen.findByText('Unauthorized, 404')).toBeDefined();
    await waitFor(() => expect(router.state.location.pathname).toBe('/'));
  });

  it("ignores another account's update", async () => {
    const server = serveFakeApi().on('GET', AUTH_PATHS.userInfo, reply(200, moderator()));
    rememberSessionInThisBrowser();
    const { socket, router } = renderApp('/dashboard/reports');
    expect(await screen.findByRole('heading', { name: 'Reports' })).toBeDefined();
    act(() => socket.serverConnects());

    act(() => socket.serverPushes(accountUpdated('access-3', 'user-2')));

    await act(async () => {
      await new Promise((resolve) => setTimeout(resolve, 50));
    });
    expect(server.requestsTo('GET', AUTH_PATHS.userInfo)).toHaveLength(1);
    expect(router.state.location.pathname).toBe('/dashboard/reports');
  });
});
