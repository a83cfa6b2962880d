import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { findSettingsDialog, renderSignedIn } from '../../features/account/account-test-support';
import { pickFromUserMenu, resetBrowser, serveFakeApi } from '../../features/auth/auth-test-support';
import { renderApp } from '../../test-support/render-app';

describe('settings page (spec 2)', () => {
  afterEach(resetBrowser);

  it("is reached from the user menu's Settings and opens the account settings dialog on General", async () => {
    const { router } = renderSignedIn('/');

    await pickFromUserMenu('Settings');

    expect(await screen.findByRole('heading', { level: 1, name: 'Settings' })).toBeDefined();
    expect(document.title).toBe('Settings · Serendip');
    expect(screen.getByRole('link', { name: 'Profile settings' }).getAttribute('href')).toBe('/settings/profile');
    await userEvent.click(screen.getByRole('button', { name: 'Account settings' }));

    const dialog = await findSettingsDialog();
    expect(within(dialog).getByRole('tab', { name: 'General', selected: true })).toBeDefined();
    expect(within(dialog).getByRole('heading', { name: 'Account Settings' })).toBeDefined();
    expect(router.state.location.search).toBe('?tab=general');
  });

  it('opens straight on the Security tab from /settings?tab=security, and Escape closes it', async () => {
    const { router } = renderSignedIn('/settings?tab=security');

    const dialog = await findSettingsDialog();
    expect(within(dialog).getByRole('tab', { name: 'Security', selected: true })).toBeDefined();
    expect(within(dialog).getByRole('heading', { name: 'Security Settings' })).toBeDefined();
    expect(await within(dialog).findByText('Chrome 156 on Linux')).toBeDefined();

    await userEvent.keyboard('{Escape}');

    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(router.state.location.pathname).toBe('/settings');
    expect(router.state.location.search).toBe('');
    // No trigger inside the dialog opened it: focus still lands on the button that opens it again.
    await waitFor(() => expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Account settings' })));
  });

  it('keeps the open tab in the URL and moves between tabs with the arrow keys', async () => {
    const { router } = renderSignedIn('/settings?tab=general');
    const dialog = await findSettingsDialog();

    within(dialog).getByRole('tab', { name: 'General' }).focus();
    await userEvent.keyboard('{ArrowRight}');

    expect(await within(dialog).findByRole('heading', { name: 'Profile Information' })).toBeDefined();
    expect(router.state.location.search).toBe('?tab=profile');
    // The profile feature's own form, its headings under the tab's.
    expect(await within(dialog).findByRole('heading', { level: 4, name: 'Profile picture' })).toBeDefined();
    await userEvent.keyboard('{ArrowRight}');
    expect(await within(dialog).findByRole('heading', { name: 'Security Settings' })).toBeDefined();
    expect(router.state.location.search).toBe('?tab=security');
  });

  it('closes with its close button', async () => {
    const { router } = renderSignedIn('/settings?tab=general');
    const dialog = await findSettingsDialog();

    await userEvent.click(within(dialog).getByRole('button', { name: 'Close settings' }));

    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(router.state.location.search).toBe('');
  });

  it('leaves the dialog shut for a tab it does not have', async () => {
    renderSignedIn('/settings?tab=billing');

    expect(await screen.findByRole('heading', { level: 1, name: 'Settings' })).toBeDefined();
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('is for signed-in users only', async () => {
    serveFakeApi();
    const { router } = renderApp('/settings?tab=security');

    expect(await screen.findByText('Unauthorized, Please Log In.')).toBeDefined();
    await waitFor(() =>
      expect(router.state.location.search).toBe(`?redirect=${encodeURIComponent('/settings?tab=security')}`),
    );
  });
});
