import { AUTH_PATHS, type DashUserList, NOTIFICATION_PATHS } from '@serendip/proto';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import {
  aUser,
  rememberSessionInThisBrowser,
  reply,
  resetBrowser,
  serveFakeApi,
} from '../../../features/auth/auth-test-support';
import { renderApp } from '../../../test-support/render-app';
import '../../../ui/test-polyfills';

const ADMIN = aUser({ role: 'admin', isAdmin: true, twoFactorEnabled: true, signedInWithCode: true });
const BOB_ID = '0b6b0a8e-8b1f-4d43-9b84-3f0f5d5e2f6a';
const FOUND: DashUserList = {
  items: [
    {
      _id: BOB_ID,
      firstName: 'Bob',
      lastName: 'Stone',
      username: 'bobstone',
      avatar: null,
      country: 'GB',
      role: 'user',
      status: 'active',
      registeredAt: '2026-01-01T00:00:00Z',
    },
  ],
  page: 1,
  totalPages: 1,
  total: 1,
};

function adminOnAnnouncements() {
  const server = serveFakeApi()
    .on('GET', AUTH_PATHS.userInfo, reply(200, ADMIN))
    .on('GET', '/api/dash/users', reply(200, FOUND))
    .on('POST', NOTIFICATION_PATHS.announce, reply(201, { _id: 'n-1' }));
  rememberSessionInThisBrowser();
  renderApp('/dashboard/announcements');
  return server;
}

describe('the announcement form (admin dashboard)', () => {
  afterEach(resetBrowser);

  it('says what is missing and sends nothing', async () => {
    const server = adminOnAnnouncements();
    await screen.findByRole('heading', { level: 1, name: 'Announcements' });
    await userEvent.click(screen.getByRole('radio', { name: 'One user' }));
    await userEvent.click(screen.getByRole('button', { name: 'Send' }));

    expect(await screen.findByText('Give the announcement a title.')).toBeDefined();
    expect(screen.getByText('Say what the announcement is about.')).toBeDefined();
    expect(screen.getByText('Choose the user to send it to.')).toBeDefined();
    expect(server.requestsTo('POST', NOTIFICATION_PATHS.announce)).toHaveLength(0);
  });

  it('sends a forced-open one to a user picked by search, says so, and empties the form', async () => {
    const server = adminOnAnnouncements();
    await userEvent.type(await screen.findByRole('textbox', { name: 'Title' }), 'About your report');
    await userEvent.type(screen.getByRole('textbox', { name: 'Description' }), 'We looked into it.');
    await userEvent.click(screen.getByRole('radio', { name: 'One user' }));
    await userEvent.type(screen.getByRole('searchbox', { name: 'Recipient' }), 'bob');
    await userEvent.click(await screen.findByRole('button', { name: /Bob Stone/ }));
    expect(screen.getByText('Bob Stone')).toBeDefined();
    await userEvent.click(screen.getByRole('switch', { name: 'Force open' }));
    await userEvent.click(screen.getByRole('button', { name: 'Send' }));

    expect(await screen.findByText('Announcement sent to Bob Stone.')).toBeDefined();
    expect(server.requestsTo('POST', NOTIFICATION_PATHS.announce).map((r) => r.body)).toEqual([
      { title: 'About your report', description: 'We looked into it.', forceOpen: true, userId: BOB_ID },
    ]);
    await waitFor(() => expect((screen.getByRole('textbox', { name: 'Title' }) as HTMLInputElement).value).toBe(''));
  });
});
