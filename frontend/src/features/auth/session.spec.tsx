import { AUTH_PATHS } from '@serendip/proto';
import { screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { renderApp } from '../../test-support/render-app';
import {
  aUser,
  hasSessionHint,
  inTurn,
  rememberSessionInThisBrowser,
  reply,
  resetBrowser,
  serveFakeApi,
} from './auth-test-support';

const overlay = () => screen.queryByRole('status', { name: 'Loading Serendip' });

describe('session start (spec 4)', () => {
  afterEach(resetBrowser);

  it('shows the app and the signed-in user when the session is valid', async () => {
    const server = serveFakeApi().on('GET', AUTH_PATHS.userInfo, reply(200, aUser()));
    rememberSessionInThisBrowser();

    const { store } = renderApp('/');

    expect(await screen.findByRole('button', { name: 'Account menu for Ada' })).toBeDefined();
    expect(screen.getByText('Server Operational')).toBeDefined();
    expect(screen.queryByRole('link', { name: 'Login' })).toBeNull();
    expect(overlay()).toBeNull();
    expect(store.getState().session.status).toBe('authenticated');
    expect(server.requestsTo('GET', AUTH_PATHS.userInfo)).toHaveLength(1);
    expect(server.requestsTo('POST', AUTH_PATHS.refreshToken)).toHaveLength(0);
  });

  it('asks nothing for a visitor and offers Login and Get Started', async () => {
    const server = serveFakeApi();

    const { store } = renderApp('/');

    expect(await screen.findByRole('link', { name: 'Login' })).toBeDefined();
    expect(screen.getByRole('link', { name: 'Login' }).getAttribute('href')).toBe('/auth/login');
    expect(screen.getByRole('link', { name: 'Get Started' }).getAttribute('href')).toBe('/auth/signup');
    expect(store.getState().session).toMatchObject({ status: 'unauthenticated', user: null });
    // A call bound to fail would be a console error in the browser for every visitor.
    expect(server.requests.map((request) => request.path)).toEqual(['/api/health']);
  });

  it('ends unauthenticated, without an endless overlay and with one refresh only, when the session is gone', async () => {
    const server = serveFakeApi()
      .on('GET', AUTH_PATHS.userInfo, reply(401, { statusCode: 401, message: 'Unauthorized' }))
      .on('POST', AUTH_PATHS.refreshToken, reply(401, { statusCode: 401, message: 'Unauthorized' }));
    rememberSessionInThisBrowser();

    const { store } = renderApp('/video-match');

    expect(await screen.findByRole('heading', { name: 'Welcome back' })).toBeDefined();
    expect(overlay()).toBeNull();
    expect(store.getState().session).toMatchObject({ status: 'unauthenticated', user: null });
    // The HTTP module refreshed once on the 401; the session start must not rotate the refresh token again.
    expect(server.requestsTo('POST', AUTH_PATHS.refreshToken)).toHaveLength(1);
    expect(server.requestsTo('GET', AUTH_PATHS.userInfo)).toHaveLength(1);
    expect(hasSessionHint()).toBe(false);
  });

  it('shows VALIDATING while user info is on its way, then the page', async () => {
    const server = serveFakeApi();
    const userInfo = server.hold('GET', AUTH_PATHS.userInfo);
    rememberSessionInThisBrowser();

    renderApp('/video-match');

    await waitFor(() => expect(overlay()?.textContent).toContain('VALIDATING'));
    expect(screen.queryByText('INITIALIZING')).toBeNull();
    userInfo.answer(200, aUser());

    expect(await screen.findByRole('heading', { name: 'Select Gender' })).toBeDefined();
    expect(overlay()).toBeNull();
  });

  it('keeps a session whose access token expired: the HTTP module refreshes and replays user info, with no token in script', async () => {
    const server = serveFakeApi()
      .on(
        'GET',
        AUTH_PATHS.userInfo,
        inTurn(reply(401, { statusCode: 401, message: 'Unauthorized' }), reply(200, aUser())),
      )
      .on('POST', AUTH_PATHS.refreshToken, reply(200, { expiresInSeconds: 900 }));
    rememberSessionInThisBrowser();

    renderApp('/video-match');

    expect(await screen.findByRole('heading', { name: 'Select Gender' })).toBeDefined();
    expect(server.requestsTo('POST', AUTH_PATHS.refreshToken)).toHaveLength(1);
    // The new access token lives in its HttpOnly cookie: no request carries it where script could read it.
    expect(server.requestsTo('GET', AUTH_PATHS.userInfo).map((request) => request.authorization)).toEqual([null, null]);
  });

  it('shows R-TOKENS while it refreshes after user info failed for another reason, then fetches user info again', async () => {
    const server = serveFakeApi().on(
      'GET',
      AUTH_PATHS.userInfo,
      inTurn(reply(503, { statusCode: 503, message: 'Service Unavailable' }), reply(200, aUser())),
    );
    const refresh = server.hold('POST', AUTH_PATHS.refreshToken);
    rememberSessionInThisBrowser();

    renderApp('/video-match');

    await waitFor(() => expect(overlay()?.textContent).toContain('R-TOKENS'));
    refresh.answer(200, { expiresInSeconds: 900 });

    expect(await screen.findByRole('heading', { name: 'Select Gender' })).toBeDefined();
    // The new access token lives in its HttpOnly cookie: no request carries it where script could read it.
    expect(server.requestsTo('GET', AUTH_PATHS.userInfo).map((request) => request.authorization)).toEqual([null, null]);
    expect(server.requestsTo('POST', AUTH_PATHS.refreshToken)).toHaveLength(1);
  });

  it('ends unauthenticated but keeps the hint when the server cannot be reached', async () => {
    serveFakeApi().on('GET', AUTH_PATHS.userInfo, () => Promise.reject(new TypeError('Failed to fetch')));
    rememberSessionInThisBrowser();

    const { store } = renderApp('/');

    await waitFor(() => expect(store.getState().session.status).toBe('unauthenticated'));
    expect(await screen.findByRole('link', { name: 'Login' })).toBeDefined();
    // No answer says nothing about the session: the next start asks again.
    expect(hasSessionHint()).toBe(true);
  });

  it('refuses an answer that is not a user', async () => {
    serveFakeApi()
      .on('GET', AUTH_PATHS.userInfo, reply(200, { message: 'hello' }))
      .on('POST', AUTH_PATHS.refreshToken, reply(401, { statusCode: 401, message: 'Unauthorized' }));
    rememberSessionInThisBrowser();

    const { store } = renderApp('/');

    await waitFor(() => expect(store.getState().session.status).toBe('unauthenticated'));
    expect(store.getState().session.user).toBeNull();
  });
});
