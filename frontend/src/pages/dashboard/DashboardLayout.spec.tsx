import { AUTH_PATHS, DASH_LOGS_PATH, type UserInfo } from '@serendip/proto';
import { screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  aUser,
  rememberSessionInThisBrowser,
  reply,
  resetBrowser,
  serveFakeApi,
} from '../../features/auth/auth-test-support';
import { renderApp } from '../../test-support/render-app';
import '../../ui/test-polyfills';

const admin = aUser({ _id: 'admin-1', role: 'admin', isAdmin: true, twoFactorEnabled: true });
const moderator = aUser({ _id: 'mod-1', role: 'moderator', isAdmin: false, twoFactorEnabled: true });

function signedInAs(user: UserInfo) {
  // The pages behind the frame are not this spec's: their loads fail (404) and say so on the console.
  vi.spyOn(console, 'error').mockImplementation(() => undefined);
  const server = serveFakeApi()
    .on('GET', AUTH_PATHS.userInfo, reply(200, user))
    .on('GET', DASH_LOGS_PATH, reply(200, { success: true, logs: [], page: 1, totalPages: 1 }));
  rememberSessionInThisBrowser();
  return server;
}

async function sidebarLinks(path: string) {
  renderApp(path);
  const sidebar = await screen.findByRole('complementary', { name: 'Dashboard' });
  return within(sidebar)
    .getAllByRole('link')
    .map((link) => link.textContent);
}

describe('the dashboard frame for each role (spec 2 "Admin dashboard", 6 Moderator)', () => {
  afterEach(resetBrowser);

  it('offers an admin the System Log in the sidebar (the phone menu is the same list)', async () => {
    signedInAs(admin);
    expect(await sidebarLinks('/dashboard/user-management')).toContain('System Log');
  });

  it('offers a moderator no System Log (GET /api/dash/logs is for admins)', async () => {
    signedInAs(moderator);
    const links = await sidebarLinks('/dashboard/user-management');
    expect(links).toEqual(expect.arrayContaining(['Overview', 'User Management', 'Reports', 'Appeals']));
    expect(links).not.toContain('System Log');
  });

  it('tells a moderator who opens /dashboard/server-logs that it is for admins, and asks the server nothing', async () => {
    const server = signedInAs(moderator);
    renderApp('/dashboard/server-logs');
    expect(await screen.findByRole('heading', { level: 1, name: 'System Log' })).toBeDefined();
    expect(screen.getByText('The System Log is for admins.')).toBeDefined();
    expect(screen.queryByText('Error fetching logs. Please try again later.')).toBeNull();
    expect(server.requestsTo('GET', DASH_LOGS_PATH)).toHaveLength(0);
  });

  it('says in the search what an admin can search by: name, username or e-mail', async () => {
    signedInAs(admin);
    renderApp('/dashboard/user-management');
    const search = await screen.findByRole('searchbox', { name: 'Search users' });
    expect(search.getAttribute('placeholder')).toBe('Search users by name, username or e-mail');
  });

  it('says in the search what a moderator can search by: no e-mail (the server searches it for admins only)', async () => {
    signedInAs(moderator);
    renderApp('/dashboard/user-management');
    const search = await screen.findByRole('searchbox', { name: 'Search users' });
    expect(search.getAttribute('placeholder')).toBe('Search users by name or username');
  });

  it('keeps the search placeholder short on a phone, where the long one is cut', async () => {
    vi.stubGlobal('matchMedia', (query: string) => ({
      matches: query === '(max-width: 600px)',
      addEventListener: () => undefined,
      removeEventListener: () => undefined,
    }));
    signedInAs(admin);
    renderApp('/dashboard/user-management');
    const search = await screen.findByRole('searchbox', { name: 'Search users' });
    expect(search.getAttribute('placeholder')).toBe('Search users');
    vi.unstubAllGlobals();
  });
});
