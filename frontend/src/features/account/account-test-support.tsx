import { AUTH_PATHS, type LoginSession, type UserInfo } from '@serendip/proto';
import { render, screen } from '@testing-library/react';
import { Provider } from 'react-redux';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { vi } from 'vitest';
import { routes } from '../../app/routes';
import { makeStore } from '../../app/store';
import { FakeSystemSocket } from '../../test-support/fake-system-socket';
import { aUser, type FakeServer, rememberSessionInThisBrowser, reply, serveFakeApi } from '../auth/auth-test-support';
import { type AccountServices, AccountServicesProvider, browserAccountServices } from './account-services';
import { aSession } from './session-fixtures';
import '../../ui/test-polyfills';

interface SignedInOptions {
  user?: UserInfo;
  /** What GET /sessions answers. */
  sessions?: LoginSession[];
  /** Sets more routes before the app starts (the Security tab asks for its list as soon as it opens). */
  prepare?: (server: FakeServer) => void;
}

/** Test-only: the whole app signed in as `user`, with page loads and reloads caught instead of done. */
export function renderSignedIn(
  path: string,
  { user = aUser(), sessions = [aSession()], prepare }: SignedInOptions = {},
) {
  const server: FakeServer = serveFakeApi()
    .on('GET', AUTH_PATHS.userInfo, reply(200, user))
    .on('POST', AUTH_PATHS.logout, reply(200, {}))
    .on('GET', AUTH_PATHS.sessions, reply(200, sessions));
  prepare?.(server);
  rememberSessionInThisBrowser();
  const loadPage = vi.fn<(path: string) => void>();
  const reloadPage = vi.fn<() => void>();
  const services: AccountServices = { ...browserAccountServices, reloadPage };
  const store = makeStore(undefined, { openSystemSocket: () => new FakeSystemSocket(), loadPage });
  const router = createMemoryRouter(routes, { initialEntries: [path] });
  const view = render(
    <Provider store={store}>
      <AccountServicesProvider value={services}>
        <RouterProvider router={router} />
      </AccountServicesProvider>
    </Provider>,
  );
  return { ...view, server, store, router, loadPage, reloadPage };
}

/** The settings dialog, once it has loaded. */
export function findSettingsDialog(): Promise<HTMLElement> {
  return screen.findByRole('dialog', { name: 'Settings' });
}

export { aSession, IPAD_AGENT, IPHONE_AGENT } from './session-fixtures';
