import {
  ADMIN_AUDIT_PATHS,
  AUTH_PATHS,
  type AuditEvent,
  type AuditStreamHistory,
  type AuditTrailPage,
  type DashUserDetails,
  DASH_USER_PATHS,
  type UserInfo,
} from '@serendip/proto';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  aUser,
  inTurn,
  rememberSessionInThisBrowser,
  reply,
  resetBrowser,
  serveFakeApi,
} from '../../../features/auth/auth-test-support';
import { renderApp } from '../../../test-support/render-app';
import '../../../ui/test-polyfills';

const BOB = '0b6f1c1e-0000-4000-8000-0000000000b0';
const ROOT = '0b6f1c1e-0000-4000-8000-0000000000f0';
const PAGE = `/dashboard/user-management/${BOB}/view-details`;
const ACCOUNT = `identity-user-${BOB}`;

const details: DashUserDetails = {
  profile: {
    _id: BOB,
    firstName: 'Bob',
    username: 'bob',
    avatar: null,
    gender: 'male',
    age: 36,
    country: 'DE',
    bio: null,
    registeredAt: '2026-11-01T10:00:00.000Z',
  },
  status: {
    role: 'user',
    status: 'active',
    twoFactorEnabled: false,
    emailVerified: true,
    profileCompleted: true,
    deletedAt: null,
    currentBan: null,
  },
  bans: [],
  reports: { filed: 0, against: 0 },
};

/** The dashboard's trail as the server sends it: each entry's stream for an admin, none for a moderator. */
const trailFor = (admin: boolean): AuditTrailPage => ({
  items: [
    {
      id: 'e2',
      type: 'RoleGranted',
      at: '2026-11-25T10:00:00.000Z',
      actor: { kind: 'user', _id: ROOT, firstName: 'Root' },
      reason: 'Trusted reviewer',
      summary: 'role: moderator · reason: Trusted reviewer',
      ...(admin ? { stream: ACCOUNT } : {}),
    },
    {
      id: 'e1',
      type: 'UserRegistered',
      at: '2026-11-01T10:00:00.000Z',
      actor: { kind: 'system', name: 'anonymous' },
      reason: null,
      summary: 'emailAddress: bob@example.com',
      ...(admin ? { stream: ACCOUNT } : {}),
    },
  ],
  page: 1,
  totalPages: 1,
  total: 2,
  subjectErased: false,
  asOf: '900:900',
});

const event = (revision: number, overrides: Partial<AuditEvent>): AuditEvent => ({
  id: `e${revision + 1}`,
  type: 'ProfileEdited',
  stream: ACCOUNT,
  revision,
  position: `${900 + revision}:${900 + revision}`,
  at: `2026-11-0${revision + 1}T10:00:00.000Z`,
  actor: { kind: 'user', _id: BOB, firstName: 'Bob' },
  reason: null,
  data: { userId: BOB },
  ...overrides,
});

const firstPage: AuditStreamHistory = {
  stream: ACCOUNT,
  items: [
    event(0, {
      type: 'UserRegistered',
      actor: { kind: 'system', name: 'anonymous' },
      data: { userId: BOB, emailAddress: 'bob@example.com' },
    }),
    event(1, {
      type: 'RoleGranted',
      actor: { kind: 'user', _id: ROOT, firstName: 'Root' },
      reason: 'Trusted reviewer',
      data: { userId: BOB, role: 'moderator', reason: 'Trusted reviewer', previous: { role: 'user' } },
    }),
  ],
  nextCursor: '1',
};
const secondPage: AuditStreamHistory = {
  stream: ACCOUNT,
  items: [event(2, { data: { userId: BOB, lastName: 'erased', bio: 'Loves chess' } })],
  nextCursor: null,
};

const admin = aUser({ _id: ROOT, firstName: 'Root', role: 'admin', isAdmin: true, twoFactorEnabled: true });
const moderator = aUser({ _id: 'mod-1', role: 'moderator', isAdmin: false, twoFactorEnabled: true });

function signedInAs(user: UserInfo) {
  vi.spyOn(console, 'error').mockImplementation(() => undefined);
  const server = serveFakeApi()
    .on('GET', AUTH_PATHS.userInfo, reply(200, user))
    .on('GET', DASH_USER_PATHS.details(BOB), reply(200, details))
    .on('GET', `${DASH_USER_PATHS.details(BOB)}/audit-trail`, reply(200, trailFor(user.role === 'admin')))
    .on('GET', ADMIN_AUDIT_PATHS.stream(ACCOUNT), inTurn(reply(200, firstPage), reply(200, secondPage)));
  rememberSessionInThisBrowser();
  return server;
}

const historyUrls = (server: ReturnType<typeof signedInAs>) =>
  server.fetch.mock.calls.map(([input]) => String(input)).filter((url) => url.includes('/api/admin/audit/streams/'));

describe("An audit-trail entry's whole history (admins)", () => {
  afterEach(resetBrowser);

  it('opens the stream of an entry: each event with its time, actor, type, reason and fields, oldest first, and Load More', async () => {
    const server = signedInAs(admin);
    renderApp(PAGE);
    const trail = await screen.findByRole('list', { name: 'Audit trail events' });
    const [roleEntry] = within(trail).getAllByRole('listitem');
    await userEvent.click(within(roleEntry!).getByRole('button', { name: /^View history/ }));

    const dialog = await screen.findByRole('dialog', { name: 'History: Account' });
    expect(within(dialog).getByText(ACCOUNT)).toBeDefined();
    const events = await within(dialog).findByRole('list', { name: 'History events' });
    let items = within(events).getAllByRole('listitem');
    expect(items.map((li) => li.querySelector('strong')?.textContent)).toEqual(['UserRegistered', 'RoleGranted']);
    // The first: by whom in words, when, and its fields opened.
    expect(items[0]!.textContent).toContain('by a signed-out visitor');
    expect(items[0]!.querySelector('time')?.getAttribute('dateTime')).toBe('2026-11-01T10:00:00.000Z');
    expect(within(items[0]!).getByText('emailAddress').nextElementSibling?.textContent).toBe('bob@example.com');
    // The entry it was opened from is marked; its actor links to their page; a nested field reads as JSON.
    expect(items[1]!.getAttribute('aria-current')).toBe('true');
    expect(within(items[1]!).getByText('This entry')).toBeDefined();
    expect(within(items[1]!).getByRole('link', { name: 'Root' }).getAttribute('href')).toBe(
      `/dashboard/user-management/${ROOT}/view-details`,
    );
    expect(items[1]!.textContent).toContain('reason: Trusted reviewer');
    expect(within(items[1]!).getByText('previous').nextElementSibling?.textContent).toBe('{"role":"user"}');

    await userEvent.click(within(dialog).getByRole('button', { name: 'Load More' }));
    await waitFor(() => expect(within(events).getAllByRole('listitem')).toHaveLength(3));
    items = within(events).getAllByRole('listitem');
    expect(within(items[2]!).getByText('lastName').nextElementSibling?.textContent).toBe('erased');
    expect(within(dialog).queryByRole('button', { name: 'Load More' })).toBeNull();
    expect(historyUrls(server)).toEqual([
      expect.stringMatching(new RegExp(`/api/admin/audit/streams/${ACCOUNT}$`)),
      expect.stringMatching(new RegExp(`/api/admin/audit/streams/${ACCOUNT}\\?cursor=1$`)),
    ]);

    await userEvent.click(within(dialog).getByRole('button', { name: 'Close' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });

  it("says the server's words when the stream is unknown, and that loading failed otherwise", async () => {
    const server = signedInAs(admin);
    server.on(
      'GET',
      ADMIN_AUDIT_PATHS.stream(ACCOUNT),
      inTurn(
        reply(404, { statusCode: 404, message: `There is no stream named ${ACCOUNT}.` }),
        reply(500, { statusCode: 500, message: 'Internal server error' }),
      ),
    );
    renderApp(PAGE);
    const trail = await screen.findByRole('list', { name: 'Audit trail events' });
    const open = () => userEvent.click(within(trail).getAllByRole('button', { name: /^View history/ })[0]!);

    await open();
    const dialog = await screen.findByRole('dialog', { name: 'History: Account' });
    expect((await within(dialog).findByRole('alert')).textContent).toBe(`There is no stream named ${ACCOUNT}.`);
    await userEvent.click(within(dialog).getByRole('button', { name: 'Close' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());

    await open();
    const again = await screen.findByRole('dialog', { name: 'History: Account' });
    expect((await within(again).findByRole('alert')).textContent).toBe('The history could not be loaded.');
  });

  it("offers a moderator no history: today's trail, and no call to the admins' audit API", async () => {
    const server = signedInAs(moderator);
    renderApp(PAGE);
    const trail = await screen.findByRole('list', { name: 'Audit trail events' });
    expect(within(trail).getAllByRole('listitem')).toHaveLength(2);
    expect(within(trail).queryByRole('button', { name: /View history/ })).toBeNull();
    expect(historyUrls(server)).toEqual([]);
  });
});
