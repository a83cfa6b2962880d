import { AUTH_PATHS } from '@serendip/proto';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderApp } from '../../test-support/render-app';
import {
  aUser,
  pickFromUserMenu,
  rememberSessionInThisBrowser,
  reply,
  resetBrowser,
  serveFakeApi,
} from '../auth/auth-test-support';

function signedInAs(overrides: Parameters<typeof aUser>[0] = {}) {
  serveFakeApi()
    .on('GET', AUTH_PATHS.userInfo, reply(200, aUser(overrides)))
    .on('POST', AUTH_PATHS.logout, reply(200, {}));
  rememberSessionInThisBrowser();
}

describe('user menu (spec 2)', () => {
  afterEach(resetBrowser);

  it('greets the user by first name and offers Feed, Profile, Activity, Settings, Security Center and Logout, no Dashboard', async () => {
    signedInAs();
    renderApp('/');

    await userEvent.click(await screen.findByRole('button', { name: 'Account menu for Ada' }));
    const menu = await screen.findByRole('menu');
    expect(within(menu).getByText('Ada')).toBeDefined();
    expect(
      within(menu)
        .getAllByRole('menuitem')
        .map((item) => item.textContent?.trim()),
    ).toEqual(['Feed', 'Profile', 'Activity', 'Settings', 'Security Center', 'Logout']);
  });

  it('has a Feed link beside the avatar menu', async () => {
    signedInAs();
    renderApp('/');

    await screen.findByRole('button', { name: 'Account menu for Ada' });
    const header = screen.getByRole('banner');
    expect(within(header).getByRole('link', { name: 'Feed' }).getAttribute('href')).toBe('/feed');
  });

  it('shows Dashboard to admins, and it leads to /dashboard', async () => {
    signedInAs({ isAdmin: true, role: 'admin', twoFactorEnabled: true });
    const { router } = renderApp('/');

    await pickFromUserMenu('Dashboard');

    await waitFor(() => expect(router.state.location.pathname).toBe('/dashboard'));
    expect(await screen.findByRole('heading', { name: 'Overview' })).toBeDefined();
  });

  it('works from the keyboard: Enter opens, arrows move, Enter picks', async () => {
    signedInAs();
    const { router } = renderApp('/');

    (await screen.findByRole('button', { name: 'Account menu for Ada' })).focus();
    await userEvent.keyboard('{Enter}');
    await screen.findByRole('menu');
    await waitFor(() => expect(document.activeElement?.textContent?.trim()).toBe('Feed'));
    await userEvent.keyboard('{ArrowDown}{ArrowDown}{ArrowDown}{ArrowDown}');
    expect(document.activeElement?.textContent?.trim()).toBe('Security Center');
    await userEvent.keyboard('{Enter}');

    await waitFor(() => expect(router.state.location.pathname).toBe('/security-center'));
  });
});

describe('phone navigation (spec 2)', () => {
  afterEach(resetBrowser);

  it('has a bottom bar with Home, Video Matching and a menu button (Feed is in the menu)', async () => {
    signedInAs();
    renderApp('/security-center');

    const bar = await screen.findByRole('navigation', { name: 'Main' });
    expect(within(bar).getByRole('link', { name: 'Home' }).getAttribute('href')).toBe('/');
    expect(within(bar).getByRole('link', { name: 'Video Matching' }).getAttribute('href')).toBe('/video-match');
    // 'Video Matching' would wrap on a 375 px phone with a fourth item.
    expect(within(bar).queryByRole('link', { name: 'Feed' })).toBeNull();
    expect(within(bar).getByRole('button', { name: 'Menu' })).toBeDefined();
  });

  it('opens a full-screen menu with Video Matching, Feed, Profile, Activity, Settings, Security Center and Log Out', async () => {
    signedInAs();
    const loadPage = vi.fn();
    const { router } = renderApp('/', { services: { loadPage } });

    await userEvent.click(await screen.findByRole('button', { name: 'Menu' }));
    const menu = await screen.findByRole('dialog', { name: 'Menu' });
    expect(within(menu).getByRole('link', { name: 'Video Matching' })).toBeDefined();
    expect(within(menu).getByRole('link', { name: 'Security Center' })).toBeDefined();
    expect(within(menu).getByRole('link', { name: 'Feed' }).getAttribute('href')).toBe('/feed');
    expect(within(menu).getByRole('link', { name: 'Profile' }).getAttribute('href')).toBe('/profile');
    expect(within(menu).getByRole('link', { name: 'Activity' }).getAttribute('href')).toBe('/activity');
    await userEvent.click(within(menu).getByRole('link', { name: 'Settings' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/settings'));
    expect(screen.queryByRole('dialog')).toBeNull();

    await userEvent.click(screen.getByRole('button', { name: 'Menu' }));
    await userEvent.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());

    await userEvent.click(screen.getByRole('button', { name: 'Menu' }));
    await userEvent.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Log Out' }));
    await waitFor(() => expect(loadPage).toHaveBeenCalledWith('/auth/login'));
  });

  it('is not there for visitors', async () => {
    serveFakeApi();
    renderApp('/');

    expect(await screen.findByRole('link', { name: 'Get Started' })).toBeDefined();
    expect(screen.queryByRole('navigation', { name: 'Main' })).toBeNull();
  });
});
