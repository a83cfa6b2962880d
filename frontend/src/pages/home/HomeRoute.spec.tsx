import { AUTH_PATHS } from '@serendip/proto';
import { screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import {
  aNewUser,
  aUser,
  rememberSessionInThisBrowser,
  reply,
  resetBrowser,
  serveFakeApi,
} from '../../features/auth/auth-test-support';
import { renderApp } from '../../test-support/render-app';

describe('home (spec 2: its own guard)', () => {
  afterEach(resetBrowser);

  it('introduces Serendip to a visitor as random one-to-one video chat for adults, with the way in', async () => {
    serveFakeApi();

    renderApp('/');

    expect(await screen.findByRole('heading', { level: 1, name: /Meet someone new/ })).toBeDefined();
    expect(screen.getByRole('link', { name: 'Serendip home' }).getAttribute('href')).toBe('/');
    expect(screen.getByText(/random one-to-one video chat with strangers, with enhanced privacy/i)).toBeDefined();
    expect(screen.getByText(/18 or older/)).toBeDefined();
    expect(screen.getByRole('link', { name: 'Create your free account' }).getAttribute('href')).toBe('/auth/signup');
    expect(screen.getByRole('link', { name: 'community guidelines' }).getAttribute('href')).toBe(
      '/support/community-guidelines',
    );
    await waitFor(() => expect(document.title).toBe('Serendip'));
  });

  it('welcomes a signed-in user by first name and leads to video matching', async () => {
    serveFakeApi().on('GET', AUTH_PATHS.userInfo, reply(200, aUser()));
    rememberSessionInThisBrowser();

    renderApp('/');

    expect(await screen.findByRole('heading', { level: 1, name: 'Welcome back, Ada' })).toBeDefined();
    expect(screen.getByRole('link', { name: 'Start video matching' }).getAttribute('href')).toBe('/video-match');
    expect(screen.queryByRole('link', { name: 'Create your free account' })).toBeNull();
  });

  it('sends a user who has not finished signing up to /auth/signup/cs', async () => {
    serveFakeApi().on('GET', AUTH_PATHS.userInfo, reply(200, aNewUser()));
    rememberSessionInThisBrowser();

    const { router } = renderApp('/');

    expect(await screen.findByRole('heading', { name: 'Tell us about you' })).toBeDefined();
    expect(router.state.location.pathname).toBe('/auth/signup/cs');
  });
});
