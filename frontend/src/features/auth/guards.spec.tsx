import { AUTH_PATHS } from '@serendip/proto';
import { act, render, screen } from '@testing-library/react';
import { StrictMode } from 'react';
import { Provider } from 'react-redux';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { routes } from '../../app/routes';
import { makeStore } from '../../app/store';
import { FakeSystemSocket } from '../../test-support/fake-system-socket';
import { renderApp } from '../../test-support/render-app';
import {
  aNewUser,
  aUser,
  hasSessionHint,
  rememberSessionInThisBrowser,
  reply,
  resetBrowser,
  serveFakeApi,
} from './auth-test-support';
import { SESSION_HINT_KEY } from './session-hint';
import type { UserInfo } from '@serendip/proto';

function signedInAs(user: UserInfo) {
  serveFakeApi().on('GET', AUTH_PATHS.userInfo, reply(200, user));
  rememberSessionInThisBrowser();
}

/** The app's routes opened on `entries`, the last one current, as if the user had navigated through them. */
function renderWithHistory(entries: string[]) {
  const store = makeStore(undefined, { openSystemSocket: () => new FakeSystemSocket() });
  const router = createMemoryRouter(routes, { initialEntries: entries, initialIndex: entries.length - 1 });
  // StrictMode as in main.tsx: effects run twice, and going back must still be one step.
  render(
    <StrictMode>
      <Provider store={store}>
        <RouterProvider router={router} />
      </Provider>
    </StrictMode>,
  );
  return { store, router };
}

describe('guards (spec 4, 6)', () => {
  afterEach(resetBrowser);

  it('sends a visitor to login with the page to come back to, and says why', async () => {
    serveFakeApi();

    const { router } = renderApp('/video-match');

    expect(await screen.findByRole('heading', { name: 'Welcome back' })).toBeDefined();
    expect(router.state.location.pathname).toBe('/auth/login');
    expect(router.state.location.search).toBe('?redirect=%2Fvideo-match');
    expect(await screen.findByText('Unauthorized, Please Log In.')).toBeDefined();
    expect(screen.queryByText('Select Gender')).toBeNull();
  });

  it('keeps the query string in the redirect', async () => {
    serveFakeApi();

    const { router } = renderApp('/video-match?from=home');

    await screen.findByRole('heading', { name: 'Welcome back' });
    expect(router.state.location.search).toBe(`?redirect=${encodeURIComponent('/video-match?from=home')}`);
  });

  it('sends a user who has not finished signing up to /auth/signup/cs', async () => {
    signedInAs(aNewUser());

    const { router } = renderApp('/video-match');

    expect(await screen.findByRole('heading', { name: 'Tell us about you' })).toBeDefined();
    expect(router.state.location.pathname).toBe('/auth/signup/cs');
  });

  it('lets a user with isFirstSteps through (spec 4: gating needs neither flag)', async () => {
    signedInAs(aNewUser({ isFirstSteps: true }));

    renderApp('/video-match');

    expect(await screen.findByRole('heading', { name: 'Select Gender' })).toBeDefined();
  });

  it('sends a user who already finished back from /auth/signup/cs', async () => {
    signedInAs(aUser());

    const { router } = renderWithHistory(['/', '/video-match', '/auth/signup/cs']);

    expect(await screen.findByRole('heading', { name: 'Select Gender' })).toBeDefined();
    expect(router.state.location.pathname).toBe('/video-match');
  });

  it('sends a finished user home from /auth/signup/cs when there is no history to go back to', async () => {
    signedInAs(aUser());

    const { router } = renderApp('/auth/signup/cs');

    expect(await screen.findByText('Server Operational')).toBeDefined();
    expect(router.state.location.pathname).toBe('/');
    expect(screen.queryByRole('heading', { name: 'Tell us about you' })).toBeNull();
  });

  describe('admin-only pages', () => {
    it('sends a non-admin to / with Unauthorized, 404', async () => {
      signedInAs(aUser({ isAdmin: false }));

      const { router } = renderWithHistory(['/dashboard']);

      expect(await screen.findByText('Unauthorized, 404')).toBeDefined();
      expect(router.state.location.pathname).toBe('/');
      expect(screen.queryByRole('heading', { name: 'The admin dashboard is coming soon' })).toBeNull();
    });

    it('shows the page to an admin', async () => {
      signedInAs(aUser({ isAdmin: true }));

      renderWithHistory(['/dashboard']);

      expect(await screen.findByRole('heading', { name: 'The admin dashboard is coming soon' })).toBeDefined();
    });

    it('sends a visitor to login first', async () => {
      serveFakeApi();

      const { router } = renderWithHistory(['/dashboard']);

      expect(await screen.findByText('Unauthorized, Please Log In.')).toBeDefined();
      expect(router.state.location.search).toBe('?redirect=%2Fdashboard');
    });
  });
});

describe('in-app navigation (spec 4)', () => {
  afterEach(resetBrowser);

  /** Another tab logged out: this tab still shows the user, but the browser no longer holds a session. */
  async function signedOutElsewhere(refreshStatus: number) {
    const server = serveFakeApi()
      .on('GET', AUTH_PATHS.userInfo, reply(200, aUser()))
      .on('POST', AUTH_PATHS.refreshToken, reply(refreshStatus, { accessToken: 'fresh' }));
    rememberSessionInThisBrowser();
    const app = renderApp('/video-match');
    await screen.findByRole('heading', { name: 'Select Gender' });
    window.localStorage.removeItem(SESSION_HINT_KEY);
    await act(() => app.router.navigate('/video-match?again=1'));
    return { ...app, server };
  }

  it("sends the user to login with 'Session Expired, Please Log In.' when the session is gone", async () => {
    const { router } = await signedOutElsewhere(401);

    expect(await screen.findByText('Session Expired, Please Log In.')).toBeDefined();
    expect(router.state.location.pathname).toBe('/auth/login');
    expect(router.state.location.search).toBe(`?redirect=${encodeURIComponent('/video-match?again=1')}`);
    expect(screen.queryByText('Unauthorized, Please Log In.')).toBeNull();
  });

  it('goes on when the refresh succeeds, and asks nothing while a session is stored', async () => {
    const { router, server } = await signedOutElsewhere(200);

    await vi.waitFor(() => expect(hasSessionHint()).toBe(true));
    expect(router.state.location.search).toBe('?again=1');
    expect(screen.getByRole('heading', { name: 'Select Gender' })).toBeDefined();

    await act(() => router.navigate('/video-match?third=1'));
    const refreshes = server.requests.filter((r) => r.path === AUTH_PATHS.refreshToken);
    expect(refreshes).toHaveLength(1);
  });
});

describe('a session the server ends (spec 3 "Login session")', () => {
  afterEach(resetBrowser);

  it("goes to login with 'Session Expired, Please Log In.' when the system socket says so, once per event", async () => {
    const server = serveFakeApi().on('GET', AUTH_PATHS.userInfo, reply(200, aUser()));
    rememberSessionInThisBrowser();
    const { router, socket, store } = renderApp('/video-match');
    await screen.findByRole('heading', { name: 'Select Gender' });
    act(() => socket.serverConnects());
    const renewalsBefore = socket.renewals;
    // The session is over on the server: its cookies no longer sign in.
    server
      .on('GET', AUTH_PATHS.userInfo, reply(401, { statusCode: 401, message: 'Unauthorized, Please Log In.' }))
      .on('POST', AUTH_PATHS.refreshToken, reply(401, { statusCode: 401, message: 'Session expired' }));

    act(() => socket.serverPushes({ event: 'sessionEnded', payload: { eventId: 'e-1', reason: 'ended' } }));

    expect(await screen.findByText('Session Expired, Please Log In.')).toBeDefined();
    expect(router.state.location.pathname).toBe('/auth/login');
    expect(hasSessionHint()).toBe(false);
    expect(store.getState().session.user).toBeNull();
    // Signed out: the socket connects anew, now as a guest.
    expect(socket.renewals).toBeGreaterThan(renewalsBefore);
    // A repeat of the same event (delivery is at least once) changes nothing more.
    const dispatched = vi.spyOn(store, 'dispatch');
    act(() => socket.serverPushes({ event: 'sessionEnded', payload: { eventId: 'e-1', reason: 'ended' } }));
    expect(dispatched).not.toHaveBeenCalled();
    expect(server.requests.filter((r) => r.path === AUTH_PATHS.logout)).toHaveLength(0);
  });

  it('stays signed in when this browser holds a newer session than the one that ended (another tab signed in again)', async () => {
    serveFakeApi().on('GET', AUTH_PATHS.userInfo, reply(200, aUser()));
    rememberSessionInThisBrowser();
    const { router, socket } = renderApp('/video-match');
    await screen.findByRole('heading', { name: 'Select Gender' });
    act(() => socket.serverConnects());
    const renewalsBefore = socket.renewals;

    act(() => socket.serverPushes({ event: 'sessionEnded', payload: { eventId: 'e-2', reason: 'ended' } }));

    // The socket reconnects under the session the cookies hold now; the page stays.
    await vi.waitFor(() => expect(socket.renewals).toBeGreaterThan(renewalsBefore));
    expect(router.state.location.pathname).toBe('/video-match');
    expect(hasSessionHint()).toBe(true);
    expect(screen.queryByText('Session Expired, Please Log In.')).toBeNull();
  });
});
