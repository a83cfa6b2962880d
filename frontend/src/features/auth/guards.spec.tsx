import { AUTH_PATHS } from '@serendip/proto';
import { act, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
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
      expect(screen.queryByRole('heading', { name: 'Overview' })).toBeNull();
    });

    it('shows the dashboard to an admin, in its own frame', async () => {
      signedInAs(aUser({ isAdmin: true, role: 'admin', twoFactorEnabled: true }));

      renderWithHistory(['/dashboard']);

      expect(await screen.findByRole('heading', { name: 'Overview' })).toBeDefined();
      expect(screen.getByRole('complementary', { name: 'Dashboard' })).toBeDefined();
      expect(screen.getByText('Admin')).toBeDefined();
    });

    it('shows the dashboard to a moderator too', async () => {
      signedInAs(aUser({ isAdmin: false, role: 'moderator', twoFactorEnabled: true }));

      renderWithHistory(['/dashboard/reports']);

      expect(await screen.findByRole('heading', { name: 'Reports' })).toBeDefined();
      expect(screen.getByText('Moderator')).toBeDefined();
    });

    it('asks staff without two-factor login to turn it on instead of showing the page, and leads to the switch', async () => {
      const server = serveFakeApi().on('GET', AUTH_PATHS.userInfo, reply(200, aUser({ role: 'moderator' })));
      rememberSessionInThisBrowser();

      const { router } = renderWithHistory(['/dashboard/reports']);

      const gate = await screen.findByRole('region', { name: 'Turn on two-factor login' });
      expect(gate.textContent).toMatch(/code we e-mail/);
      expect(screen.queryByRole('heading', { name: 'Reports' })).toBeNull();
      // The frame stays (the menu, the way out); nothing of the dashboard is asked of the server, which would refuse.
      expect(screen.getByRole('complementary', { name: 'Dashboard' })).toBeDefined();
      expect(server.requests.filter((r) => /^\/api\/(dash|admin)\//.test(r.path))).toEqual([]);

      await userEvent.click(screen.getByRole('link', { name: 'Open security settings' }));
      // The settings page is a lazy chunk: the router moves once it has loaded.
      await waitFor(() => expect(router.state.location.pathname).toBe('/settings'));
      expect(router.state.location.search).toBe('?tab=security');
    });

    it('asks staff whose session began without the mailed code to sign in again, and comes back after login', async () => {
      const server = serveFakeApi()
        .on(
          'GET',
          AUTH_PATHS.userInfo,
          reply(200, aUser({ role: 'admin', isAdmin: true, twoFactorEnabled: true, signedInWithCode: false })),
        )
        .on('POST', AUTH_PATHS.logout, reply(200, { message: 'Logged out' }));
      rememberSessionInThisBrowser();
      const loadPage = vi.fn();

      renderApp('/dashboard/reports', { services: { loadPage } });

      const gate = await screen.findByRole('region', { name: 'Sign in again with the code' });
      expect(gate.textContent).toMatch(/e-mail/);
      expect(screen.queryByRole('region', { name: 'Turn on two-factor login' })).toBeNull();
      expect(screen.queryByRole('heading', { name: 'Reports' })).toBeNull();
      expect(server.requests.filter((r) => /^\/api\/(dash|admin)\//.test(r.path))).toEqual([]);

      await userEvent.click(screen.getByRole('button', { name: 'Sign in again' }));
      await waitFor(() =>
        expect(loadPage).toHaveBeenCalledExactlyOnceWith('/auth/login?redirect=%2Fdashboard%2Freports'),
      );
      expect(server.requestsTo('POST', AUTH_PATHS.logout)).toHaveLength(1);
      expect(hasSessionHint()).toBe(false);
    });

    it('shows the page once two-factor login is on', async () => {
      signedInAs(aUser({ role: 'admin', isAdmin: true, twoFactorEnabled: true, signedInWithCode: true }));

      renderWithHistory(['/dashboard/reports']);

      expect(await screen.findByRole('heading', { name: 'Reports' })).toBeDefined();
      expect(screen.queryByRole('region', { name: 'Turn on two-factor login' })).toBeNull();
      expect(screen.queryByRole('region', { name: 'Sign in again with the code' })).toBeNull();
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
      .on('POST', AUTH_PATHS.refreshToken, reply(refreshStatus, { expiresInSeconds: 900 }));
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

  /** A signed-in page whose session the server then ends: user-info no longer answers. */
  async function endedOn(path: string) {
    const server = serveFakeApi().on('GET', AUTH_PATHS.userInfo, reply(200, aUser()));
    rememberSessionInThisBrowser();
    const loadPage = vi.fn<(path: string) => void>();
    const app = renderApp(path, { services: { loadPage, currentPath: () => path } });
    await screen.findByRole('heading', { name: 'Select Gender' });
    act(() => app.socket.serverConnects());
    server
      .on('GET', AUTH_PATHS.userInfo, reply(401, { statusCode: 401, message: 'Unauthorized, Please Log In.' }))
      .on('POST', AUTH_PATHS.refreshToken, reply(401, { statusCode: 401, message: 'Session expired' }));
    return { ...app, server, loadPage };
  }

  it('loads the login page afresh, saying why, when the system socket says so, once per event', async () => {
    const { socket, store, server, loadPage } = await endedOn('/video-match?again=1');

    act(() =>
      socket.serverPushes({ event: 'sessionEnded', payload: { eventId: 'e-1', code: 'expired', reason: 'x' } }),
    );

    // A full page load, as after a logout: the camera, a search, every piece of the signed-in page goes with it.
    await vi.waitFor(() =>
      expect(loadPage).toHaveBeenCalledWith('/auth/login?reason=expired&redirect=%2Fvideo-match%3Fagain%3D1'),
    );
    expect(hasSessionHint()).toBe(false);
    expect(store.getState().session.user).toBeNull();
    // Until the page goes, no other redirect or toast gets in its way.
    expect(screen.queryByText('Unauthorized, Please Log In.')).toBeNull();
    // A repeat of the same event (delivery is at least once) changes nothing more.
    const dispatched = vi.spyOn(store, 'dispatch');
    act(() =>
      socket.serverPushes({ event: 'sessionEnded', payload: { eventId: 'e-1', code: 'expired', reason: 'x' } }),
    );
    expect(dispatched).not.toHaveBeenCalled();
    expect(loadPage).toHaveBeenCalledTimes(1);
    expect(server.requests.filter((r) => r.path === AUTH_PATHS.logout)).toHaveLength(0);
  });

  it('says the person logged out when that is what ended it (in another tab or window)', async () => {
    const { socket, loadPage } = await endedOn('/video-match');

    act(() =>
      socket.serverPushes({ event: 'sessionEnded', payload: { eventId: 'e-3', code: 'logged-out', reason: 'x' } }),
    );

    await vi.waitFor(() =>
      expect(loadPage).toHaveBeenCalledWith('/auth/login?reason=logged-out&redirect=%2Fvideo-match'),
    );
  });

  it('stays signed in when this browser holds a newer session than the one that ended (another tab signed in again)', async () => {
    serveFakeApi().on('GET', AUTH_PATHS.userInfo, reply(200, aUser()));
    rememberSessionInThisBrowser();
    const loadPage = vi.fn<(path: string) => void>();
    const { router, socket } = renderApp('/video-match', { services: { loadPage } });
    await screen.findByRole('heading', { name: 'Select Gender' });
    act(() => socket.serverConnects());
    const renewalsBefore = socket.renewals;

    act(() =>
      socket.serverPushes({ event: 'sessionEnded', payload: { eventId: 'e-2', code: 'expired', reason: 'x' } }),
    );

    // The socket reconnects under the session the cookies hold now; the page stays.
    await vi.waitFor(() => expect(socket.renewals).toBeGreaterThan(renewalsBefore));
    expect(router.state.location.pathname).toBe('/video-match');
    expect(hasSessionHint()).toBe(true);
    expect(loadPage).not.toHaveBeenCalled();
    expect(screen.queryByText('Session Expired, Please Log In.')).toBeNull();
  });

  it.each([
    ['expired', 'Session Expired, Please Log In.'],
    ['logged-out', 'You logged out in another tab or window.'],
    ['account-deleted', 'Account deleted successfully'],
  ])('shows why on the login page it lands on (reason=%s), once', async (reason, text) => {
    serveFakeApi();
    const { router } = renderApp(`/auth/login?reason=${reason}&redirect=%2Fvideo-match`);

    expect(await screen.findByText(text)).toBeDefined();
    // The reason leaves the address (a reload says nothing), the way back stays.
    await vi.waitFor(() => expect(router.state.location.search).toBe('?redirect=%2Fvideo-match'));
  });
});
