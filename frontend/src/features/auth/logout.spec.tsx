import { AUTH_PATHS } from '@serendip/proto';
import { screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderApp } from '../../test-support/render-app';
import {
  aUser,
  hasSessionHint,
  offline,
  pickFromUserMenu,
  rememberSessionInThisBrowser,
  reply,
  type Responder,
  resetBrowser,
  serveFakeApi,
} from './auth-test-support';

async function logOutAnswering(logoutAnswer: Responder, path = '/') {
  const server = serveFakeApi()
    .on('GET', AUTH_PATHS.userInfo, reply(200, aUser()))
    .on('POST', AUTH_PATHS.logout, logoutAnswer);
  rememberSessionInThisBrowser();
  const loadPage = vi.fn();
  const view = renderApp(path, { services: { loadPage } });
  await pickFromUserMenu('Logout');
  await waitFor(() => expect(loadPage).toHaveBeenCalled());
  return { ...view, server, loadPage };
}

describe('logout (spec 4)', () => {
  afterEach(resetBrowser);

  it('calls the endpoint, forgets the user and loads /auth/login as a full page', async () => {
    const { server, loadPage, store } = await logOutAnswering(reply(200, { message: 'Logged out' }));

    expect(server.requestsTo('POST', AUTH_PATHS.logout)).toHaveLength(1);
    expect(loadPage).toHaveBeenCalledExactlyOnceWith('/auth/login');
    expect(store.getState().session.user).toBeNull();
    expect(hasSessionHint()).toBe(false);
  });

  it('still loads /auth/login when the logout call fails', async () => {
    const { server, loadPage, store } = await logOutAnswering(reply(500, { statusCode: 500, message: 'boom' }));

    expect(server.requestsTo('POST', AUTH_PATHS.logout)).toHaveLength(1);
    expect(loadPage).toHaveBeenCalledExactlyOnceWith('/auth/login');
    expect(store.getState().session.user).toBeNull();
  });

  it('still loads /auth/login when the server cannot be reached', async () => {
    const { loadPage } = await logOutAnswering(offline());

    expect(loadPage).toHaveBeenCalledExactlyOnceWith('/auth/login');
  });

  it('leaves a guarded page without the signed-out toast while the page load is on its way', async () => {
    const { router } = await logOutAnswering(reply(200, {}), '/video-match');

    expect(screen.getByRole('status', { name: 'Loading Serendip' })).toBeDefined();
    expect(router.state.location.pathname).toBe('/video-match');
    expect(screen.queryByText('Unauthorized, Please Log In.')).toBeNull();
  });
});
