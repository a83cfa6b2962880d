import { AUTH_PATHS } from '@serendip/proto';
import { render, screen } from '@testing-library/react';
import { StrictMode } from 'react';
import { Provider } from 'react-redux';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, describe, expect, it } from 'vitest';
import { AppShell } from '../../app/AppShell';
import { routes } from '../../app/routes';
import { makeStore } from '../../app/store';
import { HomePage } from '../../pages/home/HomePage';
import { FakeSystemSocket } from '../../test-support/fake-system-socket';
import { renderApp } from '../../test-support/render-app';
import { aNewUser, aUser, rememberSessionInThisBrowser, reply, resetBrowser, serveFakeApi } from './auth-test-support';
import { RequireSession } from './RequireSession';
import type { UserInfo } from '@serendip/proto';

function signedInAs(user: UserInfo) {
  serveFakeApi().on('GET', AUTH_PATHS.userInfo, reply(200, user));
  rememberSessionInThisBrowser();
}

/** The app's routes opened on `entries`, the last one current, as if the user had navigated through them. */
function renderWithHistory(entries: string[], routeTable = routes) {
  const store = makeStore(undefined, { openSystemSocket: () => new FakeSystemSocket() });
  const router = createMemoryRouter(routeTable, { initialEntries: entries, initialIndex: entries.length - 1 });
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
    expect(screen.queryByText('Video matching is coming soon')).toBeNull();
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

    expect(await screen.findByRole('heading', { name: 'Video matching is coming soon' })).toBeDefined();
  });

  it('sends a user who already finished back from /auth/signup/cs', async () => {
    signedInAs(aUser());

    const { router } = renderWithHistory(['/', '/video-match', '/auth/signup/cs']);

    expect(await screen.findByRole('heading', { name: 'Video matching is coming soon' })).toBeDefined();
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
    const withAdminPage = [
      {
        element: <AppShell />,
        children: [
          { index: true, element: <HomePage /> },
          {
            element: <RequireSession adminOnly />,
            children: [{ path: 'dashboard', element: <h1>Admin overview</h1> }],
          },
        ],
      },
    ];

    it('sends a non-admin to / with Unauthorized, 404', async () => {
      signedInAs(aUser({ isAdmin: false }));

      const { router } = renderWithHistory(['/dashboard'], withAdminPage);

      expect(await screen.findByText('Unauthorized, 404')).toBeDefined();
      expect(router.state.location.pathname).toBe('/');
      expect(screen.queryByRole('heading', { name: 'Admin overview' })).toBeNull();
    });

    it('shows the page to an admin', async () => {
      signedInAs(aUser({ isAdmin: true }));

      renderWithHistory(['/dashboard'], withAdminPage);

      expect(await screen.findByRole('heading', { name: 'Admin overview' })).toBeDefined();
    });

    it('sends a visitor to login first', async () => {
      serveFakeApi();

      const { router } = renderWithHistory(['/dashboard'], withAdminPage);

      expect(await screen.findByText('Unauthorized, Please Log In.')).toBeDefined();
      expect(router.state.location.search).toBe('?redirect=%2Fdashboard');
    });
  });
});
