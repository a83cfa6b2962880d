import { AUTH_PATHS, type DashUserList, type DashUserRow, type UserInfo } from '@serendip/proto';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  aUser,
  type FakeServer,
  inTurn,
  rememberSessionInThisBrowser,
  reply,
  resetBrowser,
  serveFakeApi,
} from '../../../features/auth/auth-test-support';
import { renderApp } from '../../../test-support/render-app';
import '../../../ui/test-polyfills';

const LIST = '/api/dash/users';

function aRow(overrides: Partial<DashUserRow> = {}): DashUserRow {
  return {
    _id: '0b6f1c1e-0000-4000-8000-000000000001',
    firstName: 'Ada',
    lastName: 'Lovelace',
    username: 'ada',
    avatar: null,
    country: 'GB',
    role: 'user',
    status: 'active',
    registeredAt: '2026-11-20T10:00:00.000Z',
    ...overrides,
  };
}

const page = (items: DashUserRow[], p = 1, totalPages = 1, total = items.length): DashUserList => ({
  items,
  page: p,
  totalPages,
  total,
});

function signedInAs(user: UserInfo, prepare: (server: FakeServer) => void) {
  vi.spyOn(console, 'error').mockImplementation(() => undefined);
  const server = serveFakeApi().on('GET', AUTH_PATHS.userInfo, reply(200, user));
  prepare(server);
  rememberSessionInThisBrowser();
  return server;
}
const admin = aUser({ _id: 'admin-1', role: 'admin', isAdmin: true, twoFactorEnabled: true });
const moderator = aUser({ _id: 'mod-1', role: 'moderator', isAdmin: false, twoFactorEnabled: true });

/** The query strings the page asked the user list with. */
const listQueries = (server: FakeServer) =>
  server.fetch.mock.calls
    .map(([input]) => String(input))
    .filter((url) => url.startsWith(`${LIST}?`))
    .map((url) => url.slice(LIST.length + 1));

describe('User Management (/dashboard/user-management)', () => {
  afterEach(resetBrowser);

  it('lists the header search’s matches with e-mail for an admin, links each to its details, and pages', async () => {
    const server = signedInAs(admin, (s) =>
      s.on(
        'GET',
        LIST,
        inTurn(
          reply(
            200,
            page(
              [
                aRow({ emailAddress: 'ada@example.com' }),
                aRow({
                  _id: '0b6f1c1e-0000-4000-8000-000000000002',
                  firstName: 'Adam',
                  lastName: 'Smith',
                  username: 'adam',
                  status: 'banned',
                  role: 'moderator',
                  emailAddress: 'adam@example.com',
                }),
              ],
              1,
              2,
              27,
            ),
          ),
          reply(200, page([aRow({ _id: '0b6f1c1e-0000-4000-8000-000000000003', firstName: 'Adele' })], 2, 2, 27)),
        ),
      ),
    );
    renderApp('/dashboard/user-management?search=ada');

    expect(await screen.findByRole('heading', { level: 1, name: 'User Management' })).toBeDefined();
    const table = await screen.findByRole('table');
    expect(within(table).getByRole('columnheader', { name: 'E-mail' })).toBeDefined();
    const adam = within(table).getByText('Adam Smith').closest('tr')!;
    expect(within(adam).getByText('adam@example.com')).toBeDefined();
    expect(within(adam).getByText('Banned')).toBeDefined();
    expect(within(adam).getByText('Moderator')).toBeDefined();
    expect(
      within(table)
        .getByRole('link', { name: /Ada Lovelace/ })
        .getAttribute('href'),
    ).toBe('/dashboard/user-management/0b6f1c1e-0000-4000-8000-000000000001/view-details');
    expect(screen.getByText('27 matching “ada”')).toBeDefined();
    expect(listQueries(server)).toEqual(['search=ada&page=1']);

    await userEvent.click(screen.getByRole('button', { name: /Next/ }));
    expect(await screen.findByText('Adele Lovelace')).toBeDefined();
    expect(screen.getByText('Page 2 of 2')).toBeDefined();
    expect(listQueries(server)).toEqual(['search=ada&page=1', 'search=ada&page=2']);
  });

  it('shows a moderator no e-mail column', async () => {
    signedInAs(moderator, (s) => s.on('GET', LIST, reply(200, page([aRow()]))));
    renderApp('/dashboard/user-management');

    const table = await screen.findByRole('table');
    expect(within(table).getByText('Ada Lovelace')).toBeDefined();
    expect(within(table).queryByRole('columnheader', { name: 'E-mail' })).toBeNull();
    expect(screen.getByText('1 user')).toBeDefined();
  });

  it('says when nobody matches, and when the list could not be loaded (and tries again)', async () => {
    signedInAs(admin, (s) =>
      s.on(
        'GET',
        LIST,
        inTurn(reply(200, page([])), reply(503, { statusCode: 503, message: 'Down' }), reply(200, page([aRow()]))),
      ),
    );
    const { router } = renderApp('/dashboard/user-management?search=zzz');
    expect(await screen.findByText('No user matches “zzz”.')).toBeDefined();

    await router.navigate('/dashboard/user-management?search=ada');
    expect((await screen.findByRole('alert')).textContent).toContain('The users could not be loaded.');
    await userEvent.click(screen.getByRole('button', { name: 'Try again' }));
    await waitFor(() => expect(screen.getByText('Ada Lovelace')).toBeDefined());
  });
});
