import { AUTH_PATHS } from '@serendip/proto';
import { screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import {
  aUser,
  rememberSessionInThisBrowser,
  reply,
  resetBrowser,
  serveFakeApi,
} from '../../features/auth/auth-test-support';
import { renderApp } from '../../test-support/render-app';

describe('profile settings page (spec 2)', () => {
  afterEach(resetBrowser);

  it('holds the profile form under its title, with a way back to the settings', async () => {
    serveFakeApi().on('GET', AUTH_PATHS.userInfo, reply(200, aUser()));
    rememberSessionInThisBrowser();
    renderApp('/settings/profile');

    expect(await screen.findByRole('heading', { level: 1, name: 'Profile' })).toBeDefined();
    expect(document.title).toBe('Profile · Serendip');
    expect(screen.getByRole('link', { name: 'Settings' }).getAttribute('href')).toBe('/settings');
    expect(screen.getByRole('heading', { level: 2, name: 'Personal information' })).toBeDefined();
    expect(screen.getByRole('button', { name: 'Save Changes' })).toBeDefined();
  });

  it('is for signed-in users only', async () => {
    serveFakeApi();
    const { router } = renderApp('/settings/profile');

    expect(await screen.findByText('Unauthorized, Please Log In.')).toBeDefined();
    await waitFor(() => expect(router.state.location.pathname).toBe('/auth/login'));
    expect(router.state.location.search).toBe(`?redirect=${encodeURIComponent('/settings/profile')}`);
  });
});
