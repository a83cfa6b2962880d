import { ACCOUNT_PATHS, AUTH_PATHS } from '@serendip/proto';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { aUser, type FakeServer, inTurn, reply, resetBrowser } from '../auth/auth-test-support';
import { aSession, findSettingsDialog, IPAD_AGENT, IPHONE_AGENT, renderSignedIn } from './account-test-support';

const THIS_COMPUTER = aSession({ _id: 'session-here' });
const PHONE = aSession({
  _id: 'session-phone',
  userAgent: IPHONE_AGENT,
  city: null,
  country: null,
  ip: '198.51.100.7',
  isCurrent: false,
});
const TABLET = aSession({
  _id: 'session-tablet',
  userAgent: IPAD_AGENT,
  city: null,
  country: 'FR',
  ip: null,
  isCurrent: false,
});

async function openSecurityTab(options: Parameters<typeof renderSignedIn>[1] = {}) {
  const view = renderSignedIn('/settings?tab=security', options);
  const dialog = await findSettingsDialog();
  return { ...view, dialog };
}

describe('account settings, Security tab (spec 2, 4, 7)', () => {
  afterEach(resetBrowser);

  it('turns two-factor on through enable-twofac, then reloads the page', async () => {
    const { dialog, server, reloadPage } = await openSecurityTab({ user: aUser({ twoFactorEnabled: false }) });
    server.on('POST', AUTH_PATHS.enableTwoFactor, reply(200, aUser({ twoFactorEnabled: true })));
    const toggle = within(dialog).getByRole('switch', { name: 'Two-factor authentication' });
    expect(toggle.getAttribute('aria-checked')).toBe('false');
    expect(within(dialog).getByText(/we e-mail you a 6-digit code/)).toBeDefined();

    await userEvent.click(toggle);

    await waitFor(() => expect(reloadPage).toHaveBeenCalledOnce());
    expect(server.requestsTo('POST', AUTH_PATHS.enableTwoFactor)).toHaveLength(1);
    expect(server.requestsTo('POST', AUTH_PATHS.disableTwoFactor)).toHaveLength(0);
  });

  it('turns two-factor off only with the current password, through disable-twofac, then reloads the page', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const { dialog, server, reloadPage } = await openSecurityTab({ user: aUser({ twoFactorEnabled: true }) });
    server.on(
      'POST',
      AUTH_PATHS.disableTwoFactor,
      inTurn(
        reply(400, { statusCode: 400, message: ['currentPassword: the current password is not right'] }),
        reply(200, aUser()),
      ),
    );

    await userEvent.click(within(dialog).getByRole('switch', { name: 'Two-factor authentication' }));
    const confirm = await screen.findByRole('dialog', { name: 'Turn off two-factor authentication?' });
    await userEvent.click(within(confirm).getByRole('button', { name: 'Turn off' }));
    expect(await within(confirm).findByText('Enter your current password to turn two-factor off.')).toBeDefined();
    expect(server.requestsTo('POST', AUTH_PATHS.disableTwoFactor)).toHaveLength(0);

    await userEvent.type(within(confirm).getByLabelText('Current password'), 'wrong-password-1');
    await userEvent.click(within(confirm).getByRole('button', { name: 'Turn off' }));
    expect(await within(confirm).findByText(/current password is not right/i)).toBeDefined();
    expect(reloadPage).not.toHaveBeenCalled();

    await userEvent.clear(within(confirm).getByLabelText('Current password'));
    await userEvent.type(within(confirm).getByLabelText('Current password'), 'right-password-1');
    await userEvent.click(within(confirm).getByRole('button', { name: 'Turn off' }));
    await waitFor(() => expect(reloadPage).toHaveBeenCalledOnce());
    expect(server.requestsTo('POST', AUTH_PATHS.disableTwoFactor).map((request) => request.body)).toEqual([
      { currentPassword: 'wrong-password-1' },
      { currentPassword: 'right-password-1' },
    ]);
  });

  it('keeps two-factor on when the password step is cancelled', async () => {
    const { dialog, server, reloadPage } = await openSecurityTab({ user: aUser({ twoFactorEnabled: true }) });
    const toggle = within(dialog).getByRole('switch', { name: 'Two-factor authentication' });

    await userEvent.click(toggle);
    const confirm = await screen.findByRole('dialog', { name: 'Turn off two-factor authentication?' });
    await userEvent.click(within(confirm).getByRole('button', { name: 'Cancel' }));

    await waitFor(() =>
      expect(screen.queryByRole('dialog', { name: 'Turn off two-factor authentication?' })).toBeNull(),
    );
    expect(toggle.getAttribute('aria-checked')).toBe('true');
    expect(server.requestsTo('POST', AUTH_PATHS.disableTwoFactor)).toHaveLength(0);
    expect(reloadPage).not.toHaveBeenCalled();
  });

  it('toasts and leaves the toggle as it was when the change fails', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const { dialog, server, reloadPage } = await openSecurityTab();
    server.on('POST', AUTH_PATHS.enableTwoFactor, reply(500, { statusCode: 500, message: 'Internal server error' }));
    const toggle = within(dialog).getByRole('switch', { name: 'Two-factor authentication' });

    await userEvent.click(toggle);

    expect(await screen.findByText('Session expired please refresh the page.')).toBeDefined();
    await waitFor(() => expect(toggle.getAttribute('aria-checked')).toBe('false'));
    expect((toggle as HTMLButtonElement).disabled).toBe(false);
    expect(reloadPage).not.toHaveBeenCalled();
  });

  it('hides the IP address through POST /user/privacy and shows the stored user the server answers', async () => {
    const { dialog, server, store, reloadPage } = await openSecurityTab({ user: aUser({ hideIp: false }) });
    server.on('POST', ACCOUNT_PATHS.privacy, reply(200, aUser({ hideIp: true })));
    const toggle = within(dialog).getByRole('switch', { name: 'Hide my IP address' });
    expect(toggle.getAttribute('aria-checked')).toBe('false');
    expect(within(dialog).getByText(/strangers never see your IP address/)).toBeDefined();
    expect(toggle.getAttribute('aria-describedby')).toBeTruthy();

    // The keyboard works it: focus, then Space.
    toggle.focus();
    await userEvent.keyboard(' ');

    await waitFor(() => expect(store.getState().session.user?.hideIp).toBe(true));
    expect(server.requestsTo('POST', ACCOUNT_PATHS.privacy).map((r) => r.body)).toEqual([{ hideIp: true }]);
    expect(toggle.getAttribute('aria-checked')).toBe('true');
    expect(document.activeElement).toBe(toggle);
    expect(reloadPage).not.toHaveBeenCalled();
  });

  it("turns hiding the IP off, and shows the server's reason with the switch as it was when it fails", async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const { dialog, server, store } = await openSecurityTab({ user: aUser({ hideIp: true }) });
    server.on(
      'POST',
      ACCOUNT_PATHS.privacy,
      reply(503, { statusCode: 503, message: 'Relayed calls are off just now' }),
    );
    const toggle = within(dialog).getByRole('switch', { name: 'Hide my IP address' });
    expect(toggle.getAttribute('aria-checked')).toBe('true');

    await userEvent.click(toggle);

    expect(await within(dialog).findByRole('alert')).toHaveProperty('textContent', 'Relayed calls are off just now.');
    expect(server.requestsTo('POST', ACCOUNT_PATHS.privacy).map((r) => r.body)).toEqual([{ hideIp: false }]);
    await waitFor(() => expect(toggle.getAttribute('aria-checked')).toBe('true'));
    expect(store.getState().session.user?.hideIp).toBe(true);
  });

  it('lists the sessions by browser, system and place, marking this device and offering no end for it', async () => {
    let sessions: ReturnType<FakeServer['hold']> | undefined;
    const { dialog } = await openSecurityTab({
      prepare: (server) => (sessions = server.hold('GET', AUTH_PATHS.sessions)),
    });

    expect(within(dialog).getByRole('heading', { name: 'Devices and Activities' })).toBeDefined();
    expect(await within(dialog).findByText('Loading your sessions')).toBeDefined();
    sessions?.answer(200, [THIS_COMPUTER, PHONE, TABLET]);

    const here = await within(dialog).findByRole('listitem', { name: 'Chrome 156 on Linux' });
    expect(within(here).getByText('This device')).toBeDefined();
    expect(within(here).getByText('Computer')).toBeDefined();
    expect(within(here).getByText('London, United Kingdom')).toBeDefined();
    expect(within(here).getByText('IP 203.0.113.5')).toBeDefined();
    expect(
      within(here)
        .getByText(/Signed in/)
        .querySelector('time')
        ?.getAttribute('dateTime'),
    ).toBe('2025-03-11T14:05:00.000Z');
    expect(within(here).queryByRole('button', { name: 'End session' })).toBeNull();

    const [phone, tablet] = within(dialog).getAllByRole('listitem', { name: 'Mobile Safari 17 on iOS' });
    if (!phone || !tablet) throw new Error('the phone and the tablet are listed');
    expect(within(phone).getByText('Phone')).toBeDefined();
    expect(within(phone).getByText('Unknown location')).toBeDefined();
    expect(within(phone).queryByText('This device')).toBeNull();
    expect(within(phone).getByRole('button', { name: 'End session' })).toBeDefined();

    expect(within(tablet).getByText('Tablet')).toBeDefined();
    expect(within(tablet).getByText('France')).toBeDefined();
  });

  it('ends one session and shows the list the server answers', async () => {
    const { dialog, server } = await openSecurityTab({ sessions: [THIS_COMPUTER, PHONE] });
    server.on('POST', AUTH_PATHS.deleteSession, reply(200, [THIS_COMPUTER]));

    const phone = await within(dialog).findByRole('listitem', { name: 'Mobile Safari 17 on iOS' });
    await userEvent.click(within(phone).getByRole('button', { name: 'End session' }));

    await waitFor(() => expect(within(dialog).queryByRole('listitem', { name: 'Mobile Safari 17 on iOS' })).toBeNull());
    expect(server.requestsTo('POST', AUTH_PATHS.deleteSession)[0]?.body).toEqual({ sessionId: 'session-phone' });
    expect(within(dialog).getAllByRole('listitem')).toHaveLength(1);
    // Nothing else left to end.
    expect(within(dialog).queryByRole('button', { name: 'End all other sessions' })).toBeNull();
  });

  it('ends every other session at once', async () => {
    const { dialog, server } = await openSecurityTab({ sessions: [THIS_COMPUTER, PHONE, TABLET] });
    server.on('POST', AUTH_PATHS.deleteOtherSessions, reply(200, [THIS_COMPUTER]));

    await within(dialog).findByRole('listitem', { name: 'Chrome 156 on Linux' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'End all other sessions' }));

    await waitFor(() => expect(within(dialog).getAllByRole('listitem')).toHaveLength(1));
    expect(server.requestsTo('POST', AUTH_PATHS.deleteOtherSessions)).toHaveLength(1);
    expect(server.requestsTo('POST', AUTH_PATHS.deleteSession)).toHaveLength(0);
  });

  it('only logs a failed list, says so politely and can try again', async () => {
    const logged = vi.spyOn(console, 'error').mockImplementation(() => {});
    const { dialog, server } = await openSecurityTab({
      prepare: (server) =>
        server.on('GET', AUTH_PATHS.sessions, reply(503, { statusCode: 503, message: 'Service Unavailable' })),
    });

    expect(await within(dialog).findByText("We couldn't load your sessions just now.")).toBeDefined();
    expect(logged).toHaveBeenCalled();
    expect(screen.queryByRole('alert')).toBeNull();

    server.on('GET', AUTH_PATHS.sessions, reply(200, [THIS_COMPUTER]));
    await userEvent.click(within(dialog).getByRole('button', { name: 'Try again' }));
    expect(await within(dialog).findByRole('listitem', { name: 'Chrome 156 on Linux' })).toBeDefined();
  });

  it('only logs a failed end, keeping the list as it was', async () => {
    const logged = vi.spyOn(console, 'error').mockImplementation(() => {});
    const { dialog, server } = await openSecurityTab({ sessions: [THIS_COMPUTER, PHONE] });
    server.on('POST', AUTH_PATHS.deleteSession, reply(404, { statusCode: 404, message: 'No such session' }));

    const phone = await within(dialog).findByRole('listitem', { name: 'Mobile Safari 17 on iOS' });
    await userEvent.click(within(phone).getByRole('button', { name: 'End session' }));

    await waitFor(() => expect(logged).toHaveBeenCalled());
    await waitFor(() =>
      expect((within(phone).getByRole('button', { name: 'End session' }) as HTMLButtonElement).disabled).toBe(false),
    );
    expect(within(dialog).getAllByRole('listitem')).toHaveLength(2);
  });
});
