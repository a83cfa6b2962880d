import { AUTH_PATHS } from '@serendip/proto';
import { render, screen, waitFor } from '@testing-library/react';
import { StrictMode } from 'react';
import { Provider } from 'react-redux';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, describe, expect, it } from 'vitest';
import { routes } from '../../app/routes';
import { makeStore } from '../../app/store';
import {
  aNewUser,
  rememberSessionInThisBrowser,
  reply,
  resetBrowser,
  serveFakeApi,
} from '../../features/auth/auth-test-support';
import { FakeSystemSocket } from '../../test-support/fake-system-socket';
import { renderApp } from '../../test-support/render-app';

/** As main.tsx renders it: in StrictMode, where effects run twice in development. */
function renderStrict(path: string) {
  const store = makeStore(undefined, { openSystemSocket: () => new FakeSystemSocket() });
  const router = createMemoryRouter(routes, { initialEntries: [path] });
  render(
    <StrictMode>
      <Provider store={store}>
        <RouterProvider router={router} />
      </Provider>
    </StrictMode>,
  );
  return { store };
}

describe('e-mail verification landing', () => {
  afterEach(resetBrowser);

  it('sends the single-use token once, even in StrictMode, and says the address is verified', async () => {
    const server = serveFakeApi().on(
      'POST',
      AUTH_PATHS.verifyEmail,
      reply(200, { message: 'E-mail address confirmed' }),
    );

    renderStrict('/auth/verify-email?token=a-token-of-some-length');

    expect(await screen.findByText('Your e-mail address is verified.')).toBeDefined();
    expect(server.requestsTo('POST', AUTH_PATHS.verifyEmail).map((request) => request.body)).toEqual([
      { token: 'a-token-of-some-length' },
    ]);
    expect(screen.getByRole('link', { name: 'Log in' }).getAttribute('href')).toBe('/auth/login');
  });

  it('marks the signed-in user verified', async () => {
    serveFakeApi()
      .on('GET', AUTH_PATHS.userInfo, reply(200, aNewUser()))
      .on('POST', AUTH_PATHS.verifyEmail, reply(200, { message: 'E-mail address confirmed' }));
    rememberSessionInThisBrowser();

    const { store } = renderApp('/auth/verify-email?token=a-token-of-some-length');

    expect(await screen.findByText('Your e-mail address is verified.')).toBeDefined();
    // The session may still be starting when the answer comes; the user it brings is marked verified then.
    await waitFor(() => expect(store.getState().session.user?.emailVerified).toBe(true));
  });

  it('says the link expired or was used when the server refuses it', async () => {
    serveFakeApi().on('POST', AUTH_PATHS.verifyEmail, reply(400, { statusCode: 400, message: 'Bad Request' }));

    renderApp('/auth/verify-email?token=a-token-of-some-length');

    expect(await screen.findByText('This verification link has expired or was already used.')).toBeDefined();
  });

  it('says the link is not usable when it has no token, without calling the server', async () => {
    const server = serveFakeApi();

    renderApp('/auth/verify-email');

    expect(await screen.findByText('This verification link has expired or was already used.')).toBeDefined();
    expect(server.requestsTo('POST', AUTH_PATHS.verifyEmail)).toHaveLength(0);
  });
});
