import { ACCOUNT_PATHS, AUTH_PATHS } from '@serendip/proto';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { aUser, reply, resetBrowser } from '../auth/auth-test-support';
import { findSettingsDialog, renderSignedIn } from './account-test-support';

async function openGeneralTab(user = aUser()) {
  const view = renderSignedIn('/settings?tab=general', { user });
  const dialog = await findSettingsDialog();
  return { ...view, dialog };
}

const field = (dialog: HTMLElement, label: string) => within(dialog).getByLabelText(label) as HTMLInputElement;

describe('account settings, General tab (spec 2, 4, 5)', () => {
  afterEach(resetBrowser);

  it('shows the current e-mail masked', async () => {
    const { dialog } = await openGeneralTab(aUser({ emailAddress: 'ada.lovelace@example.com' }));

    expect(within(dialog).getByText('a***@example.com')).toBeDefined();
    expect(within(dialog).queryByText(/ada\.lovelace/)).toBeNull();
  });

  it("says 'Invalid email format' at the field and sends nothing for an address without a domain dot", async () => {
    const { dialog, server } = await openGeneralTab();

    await userEvent.type(field(dialog, 'New e-mail address'), 'ada@example');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save' }));

    const email = field(dialog, 'New e-mail address');
    expect(within(dialog).getByText('Invalid email format')).toBeDefined();
    expect(email.getAttribute('aria-invalid')).toBe('true');
    expect(document.activeElement).toBe(email);
    expect(server.requestsTo('POST', ACCOUNT_PATHS.editAccount)).toHaveLength(0);
  });

  it('keeps the e-mail when it is left blank, ends the other sessions with a new password, and confirms for 3 s', async () => {
    const { dialog, server, store } = await openGeneralTab();
    server.on(
      'POST',
      ACCOUNT_PATHS.editAccount,
      reply(200, { user: aUser({ firstName: 'Augusta' }), endedSessions: 2 }),
    );

    await userEvent.type(field(dialog, 'Current password'), 'old secret words');
    await userEvent.type(field(dialog, 'New password'), 'new secret words');
    expect(
      within(dialog).getByRole('switch', { name: 'Sign out of my other devices' }).getAttribute('aria-checked'),
    ).toBe('true');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save' }));

    expect(await within(dialog).findByRole('button', { name: 'Changes Saved Successfully' })).toBeDefined();
    expect(server.requestsTo('POST', ACCOUNT_PATHS.editAccount)[0]?.body).toEqual({
      currentPassword: 'old secret words',
      newPassword: 'new secret words',
      endOtherSessions: true,
    });
    expect(store.getState().session.user?.firstName).toBe('Augusta');
    expect(within(dialog).getByText('Signed out of 2 other devices.')).toBeDefined();
    expect(field(dialog, 'New password').value).toBe('');
    // spec 9: 3000 ms, then the button is Save again.
    expect(await within(dialog).findByRole('button', { name: 'Save' }, { timeout: 10_000 })).toBeDefined();
  });

  it('keeps the other sessions when asked to', async () => {
    const { dialog, server } = await openGeneralTab();
    server.on('POST', ACCOUNT_PATHS.editAccount, reply(200, { user: aUser() }));

    await userEvent.type(field(dialog, 'Current password'), 'old secret words');
    await userEvent.type(field(dialog, 'New password'), 'new secret words');
    await userEvent.click(within(dialog).getByRole('switch', { name: 'Sign out of my other devices' }));
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save' }));

    await within(dialog).findByRole('button', { name: 'Changes Saved Successfully' });
    expect(server.requestsTo('POST', ACCOUNT_PATHS.editAccount)[0]?.body).toMatchObject({ endOtherSessions: false });
  });

  it('tells where the confirmation link went when the e-mail is changing', async () => {
    const { dialog, server, store } = await openGeneralTab();
    server.on(
      'POST',
      ACCOUNT_PATHS.editAccount,
      reply(200, { user: aUser(), pendingEmailAddress: 'augusta@example.org' }),
    );

    await userEvent.type(field(dialog, 'New e-mail address'), ' augusta@example.org ');
    await userEvent.type(field(dialog, 'Current password'), 'old secret words');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save' }));

    const notice = await within(dialog).findByText(/We sent a confirmation link to/);
    expect(notice.textContent).toContain('augusta@example.org');
    expect(notice.textContent).toContain('once you follow that link');
    expect(server.requestsTo('POST', ACCOUNT_PATHS.editAccount)[0]?.body).toEqual({
      emailAddress: 'augusta@example.org',
      currentPassword: 'old secret words',
    });
    expect(store.getState().session.user?.emailAddress).toBe('ada@example.com');
  });

  it("shows the server's 400 messages at their fields", async () => {
    const { dialog, server } = await openGeneralTab();
    server.on(
      'POST',
      ACCOUNT_PATHS.editAccount,
      reply(400, {
        statusCode: 400,
        message: ['currentPassword: the current password is not right'],
        error: 'Bad Request',
      }),
    );

    await userEvent.type(field(dialog, 'Current password'), 'wrong words');
    await userEvent.type(field(dialog, 'New password'), 'new secret words');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save' }));

    expect(await within(dialog).findByText('The current password is not right.')).toBeDefined();
    expect(field(dialog, 'Current password').getAttribute('aria-invalid')).toBe('true');
    expect(within(dialog).getByRole('button', { name: 'Save' })).toBeDefined();
  });

  it("shows any other error's message, or 'An error occurred' when the server gave none", async () => {
    const { dialog, server } = await openGeneralTab();
    server.on(
      'POST',
      ACCOUNT_PATHS.editAccount,
      reply(409, { statusCode: 409, message: 'Your account is being changed elsewhere' }),
    );
    await userEvent.type(field(dialog, 'Current password'), 'old secret words');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect((await within(dialog).findByRole('alert')).textContent).toBe('Your account is being changed elsewhere.');

    server.on('POST', ACCOUNT_PATHS.editAccount, reply(500, { statusCode: 500, message: 'Internal server error' }));
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(within(dialog).getByRole('alert').textContent).toBe('An error occurred'));
  });

  it('deletes the account only with the current password, then toasts and logs out', async () => {
    const { dialog, server, loadPage, store } = await openGeneralTab();
    server.on(
      'POST',
      ACCOUNT_PATHS.deleteAccount,
      reply(400, { statusCode: 400, message: ['currentPassword: the current password is not right'] }),
    );

    await userEvent.click(within(dialog).getByRole('button', { name: 'Delete account' }));
    const confirm = await screen.findByRole('dialog', { name: 'Delete your account?' });
    expect(within(confirm).getByText('You are signed out on every device.')).toBeDefined();
    expect(within(confirm).getByText('Your account cannot be recovered.')).toBeDefined();

    await userEvent.click(within(confirm).getByRole('button', { name: 'Delete my account' }));
    expect(within(confirm).getByText('Enter your current password to delete the account.')).toBeDefined();
    expect(server.requestsTo('POST', ACCOUNT_PATHS.deleteAccount)).toHaveLength(0);

    await userEvent.type(within(confirm).getByLabelText('Current password'), 'wrong words');
    await userEvent.click(within(confirm).getByRole('button', { name: 'Delete my account' }));
    expect(await within(confirm).findByText('The current password is not right.')).toBeDefined();
    expect(loadPage).not.toHaveBeenCalled();

    server.on('POST', ACCOUNT_PATHS.deleteAccount, reply(200, { message: 'Account deleted' }));
    await userEvent.clear(within(confirm).getByLabelText('Current password'));
    await userEvent.type(within(confirm).getByLabelText('Current password'), 'old secret words');
    await userEvent.click(within(confirm).getByRole('button', { name: 'Delete my account' }));

    expect(await screen.findByText('Account deleted successfully')).toBeDefined();
    expect(server.requestsTo('POST', ACCOUNT_PATHS.deleteAccount)[1]?.body).toEqual({
      currentPassword: 'old secret words',
    });
    // spec 4 "Logout", the app's own: the endpoint, the user forgotten, /auth/login as a full page load.
    await waitFor(() => expect(loadPage).toHaveBeenCalledExactlyOnceWith('/auth/login'), { timeout: 10_000 });
    expect(server.requestsTo('POST', AUTH_PATHS.logout)).toHaveLength(1);
    expect(store.getState().session.user).toBeNull();
  });

  it('keeps the account when the confirmation is cancelled', async () => {
    const { dialog, server } = await openGeneralTab();

    await userEvent.click(within(dialog).getByRole('button', { name: 'Delete account' }));
    const confirm = await screen.findByRole('dialog', { name: 'Delete your account?' });
    await userEvent.click(within(confirm).getByRole('button', { name: 'Cancel' }));

    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Delete your account?' })).toBeNull());
    expect(screen.getByRole('dialog', { name: 'Settings' })).toBeDefined();
    expect(server.requestsTo('POST', ACCOUNT_PATHS.deleteAccount)).toHaveLength(0);
  });
});
