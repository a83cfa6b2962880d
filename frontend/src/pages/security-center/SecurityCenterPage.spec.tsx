import { AUTH_PATHS, MODERATION_PATHS } from '@serendip/proto';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import {
  aUser,
  rememberSessionInThisBrowser,
  reply,
  resetBrowser,
  serveFakeApi,
} from '../../features/auth/auth-test-support';
import { renderApp } from '../../test-support/render-app';

describe('security center (spec 2)', () => {
  afterEach(resetBrowser);

  it('marks Account Health, Logs, Reports and Tickets coming soon, and opens the ban history', async () => {
    serveFakeApi()
      .on('GET', AUTH_PATHS.userInfo, reply(200, aUser()))
      .on('GET', MODERATION_PATHS.banHistory, reply(200, []))
      .on('GET', MODERATION_PATHS.warnings, reply(200, []));
    rememberSessionInThisBrowser();
    const { router } = renderApp('/security-center');

    expect(await screen.findByRole('heading', { level: 1, name: 'Security Center' })).toBeDefined();
    for (const card of ['Account Health', 'Logs', 'Reports', 'Tickets']) {
      const title = screen.getByText(card, { selector: '.security-card__title', exact: false });
      expect(within(title).getByText('coming soon')).toBeDefined();
      expect(title.closest('a')).toBeNull();
    }
    const menu = screen.getByRole('navigation', { name: 'Security center' });
    expect(within(menu).getByRole('link', { name: 'Community Guidelines' }).getAttribute('href')).toBe(
      '/support/community-guidelines',
    );
    expect(within(menu).getByRole('link', { name: 'Terms of Service' }).getAttribute('href')).toBe(
      '/legal/terms-of-service',
    );
    expect(within(menu).getByRole('link', { name: 'Privacy Policy' }).getAttribute('href')).toBe(
      '/legal/privacy-policy',
    );

    expect(within(menu).getByRole('link', { name: 'Recent calls' }).getAttribute('href')).toBe(
      '/security-center/recent-calls',
    );
    expect(screen.getByRole('link', { name: /^Recent calls.*report someone you met/ }).getAttribute('href')).toBe(
      '/security-center/recent-calls',
    );

    await userEvent.click(screen.getByRole('link', { name: /Ban History.*Restrictions on your account/ }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/security-center/view-ban-history'));
    expect(await screen.findByRole('heading', { level: 1, name: 'Ban History' })).toBeDefined();
    expect(await screen.findByText('Your account has never been restricted.')).toBeDefined();
  });

  it('is for signed-in users only', async () => {
    serveFakeApi();
    const { router } = renderApp('/security-center');

    expect(await screen.findByText('Unauthorized, Please Log In.')).toBeDefined();
    await waitFor(() =>
      expect(router.state.location.search).toBe(`?redirect=${encodeURIComponent('/security-center')}`),
    );
  });
});
