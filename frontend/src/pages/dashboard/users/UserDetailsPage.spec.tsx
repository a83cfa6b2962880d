import {
  AUTH_PATHS,
  type AuditTrailPage,
  type DashBan,
  type DashUserDetails,
  DASH_MODERATION_PATHS,
  DASH_USER_PATHS,
  type UserInfo,
} from '@serendip/proto';
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

const BOB = '0b6f1c1e-0000-4000-8000-0000000000b0';
const ADA = '0b6f1c1e-0000-4000-8000-0000000000a0';
const ROOT = '0b6f1c1e-0000-4000-8000-0000000000f0';
const PAGE = `/dashboard/user-management/${BOB}/view-details`;
const CASE = '0b6f1c1e-0000-4000-8000-0000000000c0';

const aBan = (overrides: Partial<DashBan> = {}): DashBan => ({
  caseId: CASE,
  reason: 'Harassment in a call',
  level: 'moderate',
  bannedBy: { _id: ROOT, firstName: 'Root' },
  bannedAt: '2026-11-25T10:00:00.000Z',
  expiresAt: '2026-11-26T10:00:00.000Z',
  endedAt: null,
  endedHow: null,
  appealStatus: 'none',
  appealExplanation: null,
  reportId: null,
  ...overrides,
});

function bob(overrides: { banned?: boolean; admin?: boolean } = {}): DashUserDetails {
  const ban = aBan();
  return {
    // A moderator gets what a member sees on a public profile: no last name, birth date, city, e-mail or sessions.
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
      ...(overrides.admin === false
        ? {}
        : {
            lastName: 'Stone',
            birthDate: '1990-01-01',
            city: 'Berlin',
            emailAddress: 'bob@example.com',
            phoneNumber: null,
          }),
    },
    status: {
      role: 'user',
      status: overrides.banned ? 'banned' : 'active',
      twoFactorEnabled: false,
      emailVerified: true,
      profileCompleted: true,
      deletedAt: null,
      currentBan: overrides.banned ? ban : null,
    },
    ...(overrides.admin === false
      ? {}
      : {
          sessions: [
            {
              sessionId: 's-1',
              userAgent: 'Firefox on Linux',
              createdAt: '2026-11-25T09:00:00.000Z',
              lastUsedAt: '2026-11-25T09:30:00.000Z',
              endedAt: null,
              endReason: null,
              country: 'DE',
              city: 'Berlin',
              ip: '203.0.113.7',
            },
          ],
        }),
    bans: overrides.banned ? [ban] : [aBan({ endedAt: '2026-11-02T10:00:00.000Z', endedHow: 'expired' })],
    reports: { filed: 0, against: 1 },
  };
}

const trail: AuditTrailPage = {
  items: [
    {
      id: 'e3',
      type: 'UserBanned',
      at: '2026-11-25T10:00:00.000Z',
      actor: { kind: 'user', _id: ROOT, firstName: 'Root' },
      reason: 'Harassment in a call',
      summary: 'level: moderate',
    },
    {
      id: 'e2',
      type: 'ReportFiled',
      at: '2026-11-25T09:55:00.000Z',
      actor: { kind: 'user', _id: ADA, firstName: 'Ada' },
      reason: 'harassment',
      summary: 'severity: high · details: he shouted',
    },
    {
      id: 'e1',
      type: 'UserRegistered',
      at: '2026-11-01T10:00:00.000Z',
      actor: { kind: 'system', name: 'anonymous' },
      reason: null,
      summary: 'emailAddress: erased',
    },
  ],
  page: 1,
  totalPages: 1,
  total: 3,
  subjectErased: false,
  asOf: '900:900',
};

const admin = aUser({ _id: ROOT, firstName: 'Root', role: 'admin', isAdmin: true, twoFactorEnabled: true });
const moderator = aUser({ _id: 'mod-1', role: 'moderator', isAdmin: false, twoFactorEnabled: true });

function signedInAs(user: UserInfo, details: DashUserDetails | null) {
  vi.spyOn(console, 'error').mockImplementation(() => undefined);
  const server = serveFakeApi()
    .on('GET', AUTH_PATHS.userInfo, reply(200, user))
    .on(
      'GET',
      DASH_USER_PATHS.details(BOB),
      details ? reply(200, details) : reply(404, { statusCode: 404, message: 'No such user' }),
    )
    .on('GET', `${DASH_USER_PATHS.details(BOB)}/audit-trail`, reply(200, trail));
  rememberSessionInThisBrowser();
  return server;
}

const card = (name: string) => screen.getByRole('heading', { level: 2, name }).closest('article')!;
const detailLoads = (server: FakeServer) => server.requestsTo('GET', DASH_USER_PATHS.details(BOB)).length;
const suggestionUrls = (server: FakeServer) =>
  server.fetch.mock.calls.map(([input]) => String(input)).filter((url) => url.includes('/penalty-suggestion'));

describe('User details (/dashboard/user-management/:id/view-details)', () => {
  afterEach(resetBrowser);

  it('shows an admin the profile, status, sessions with IPs, the ban history and the audit trail with actors', async () => {
    signedInAs(admin, bob({ banned: true }));
    renderApp(PAGE);

    expect(await screen.findByRole('heading', { level: 1, name: 'Bob Stone' })).toBeDefined();
    expect(within(card('Profile')).getByText('bob@example.com')).toBeDefined();
    expect(within(card('Profile')).getByText('Berlin, Germany')).toBeDefined();
    expect(within(card('Status')).getAllByText('Banned').length).toBeGreaterThan(0);
    expect(within(card('Sessions')).getByText(/IP 203\.0\.113\.7/)).toBeDefined();
    expect(within(card('Ban history')).getByText('Reports filed: 0 · reports against: 1')).toBeDefined();

    const events = await screen.findByRole('list', { name: 'Audit trail events' });
    const items = within(events).getAllByRole('listitem');
    expect(items.map((li) => li.querySelector('strong')?.textContent)).toEqual([
      'UserBanned',
      'ReportFiled',
      'UserRegistered',
    ]);
    expect(within(items[0]!).getByRole('link', { name: 'Root' }).getAttribute('href')).toBe(
      `/dashboard/user-management/${ROOT}/view-details`,
    );
    expect(items[0]!.textContent).toContain('reason: Harassment in a call');
    expect(within(items[1]!).getByRole('link', { name: 'Ada' })).toBeDefined();
    expect(items[2]!.textContent).toContain('by a signed-out visitor');
  });

  it('lifts a ban with a reason (admin), then shows the user again', async () => {
    const server = signedInAs(admin, bob({ banned: true }));
    server.on('POST', DASH_USER_PATHS.unban(CASE), reply(200, { message: 'Ban lifted' }));
    renderApp(PAGE);

    await userEvent.click(await screen.findByRole('button', { name: 'Unban' }));
    const dialog = await screen.findByRole('dialog', { name: 'Unban Bob Stone' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Unban' }));
    expect(within(dialog).getByRole('alert').textContent).toBe('Say why the ban is lifted.');
    await userEvent.type(within(dialog).getByLabelText('Reason'), 'Mistaken identity');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Unban' }));

    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(server.requestsTo('POST', DASH_USER_PATHS.unban(CASE)).map((r) => r.body)).toEqual([
      { reason: 'Mistaken identity' },
    ]);
    await waitFor(() => expect(detailLoads(server)).toBe(2));
  });

  it('bans with the policy’s suggestion for the chosen level, or another penalty with its reason', async () => {
    const server = signedInAs(admin, bob());
    server
      .on(
        'GET',
        `/api/admin/users/${BOB}/penalty-suggestion`,
        inTurn(
          reply(200, { kind: 'restriction', tier: 1, days: 1, explanation: 'A first moderate violation: 24 hours.' }),
          reply(200, { kind: 'restriction', tier: 1, days: 7, explanation: 'A first severe violation: 7 days.' }),
        ),
      )
      .on('POST', DASH_MODERATION_PATHS.ban(BOB), reply(201, { caseId: CASE }));
    renderApp(PAGE);

    await userEvent.click(await screen.findByRole('button', { name: 'Ban' }));
    const dialog = await screen.findByRole('dialog', { name: 'Ban Bob Stone' });
    expect(await within(dialog).findByText('Restriction for 1 day')).toBeDefined();
    expect(within(dialog).getByRole('combobox', { name: 'Violation level' })).toHaveProperty('value', 'moderate');
    expect(within(dialog).getByLabelText('Reason (the user sees it)')).toHaveProperty('value', '');

    await userEvent.selectOptions(within(dialog).getByRole('combobox', { name: 'Violation level' }), 'severe');
    expect(await within(dialog).findByText('Restriction for 7 days')).toBeDefined();
    expect(within(dialog).getByText('A first severe violation: 7 days.')).toBeDefined();
    expect(suggestionUrls(server).at(-1)).toContain('level=severe');

    await userEvent.type(within(dialog).getByLabelText('Reason (the user sees it)'), 'Harassment');
    await userEvent.click(within(dialog).getByRole('radio', { name: 'Another penalty' }));
    await userEvent.selectOptions(within(dialog).getByRole('combobox', { name: 'Penalty type' }), 'restriction');
    await userEvent.clear(within(dialog).getByLabelText('Days'));
    await userEvent.type(within(dialog).getByLabelText('Days'), '3');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Ban user' }));
    expect(within(dialog).getByRole('alert').textContent).toBe(
      'Say why you choose another penalty than the policy suggests.',
    );
    expect(server.requestsTo('POST', DASH_MODERATION_PATHS.ban(BOB))).toHaveLength(0);
    await userEvent.type(within(dialog).getByLabelText("Why not the policy's suggestion"), 'Repeated in chat');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Ban user' }));

    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(server.requestsTo('POST', DASH_MODERATION_PATHS.ban(BOB)).map((r) => r.body)).toEqual([
      {
        reason: 'Harassment',
        level: 'severe',
        penalty: { kind: 'restriction', days: 3 },
        overrideReason: 'Repeated in chat',
      },
    ]);
    await waitFor(() => expect(detailLoads(server)).toBe(2));
  });

  it('lets an admin change the role with a reason through the role route', async () => {
    const server = signedInAs(admin, bob());
    server.on('POST', DASH_USER_PATHS.role(BOB), reply(200, { message: 'Role changed' }));
    renderApp(PAGE);

    const form = await screen.findByRole('form', { name: 'Role' });
    await userEvent.selectOptions(within(form).getByLabelText('Role'), 'moderator');
    await userEvent.type(within(form).getByLabelText('Reason for the role change'), 'Runs the night shift');
    await userEvent.click(within(form).getByRole('button', { name: 'Change role' }));

    await waitFor(() =>
      expect(server.requestsTo('POST', DASH_USER_PATHS.role(BOB)).map((r) => r.body)).toEqual([
        { role: 'moderator', reason: 'Runs the night shift' },
      ]),
    );
    expect(await screen.findByText('Bob Stone is now a moderator.')).toBeDefined();
    // Bob's two-factor login is off: the dashboard stays closed to him until it is on and he signs in with the code.
    const notice = await screen.findByText(/must turn on two-factor login/);
    expect(notice.textContent).toBe(
      'Bob Stone must turn on two-factor login and sign in with the code we e-mail before they can use the dashboard.',
    );
  });

  it('says nothing of two-factor login when the new moderator has it on, or when the role goes back to user', async () => {
    const details = bob();
    const server = signedInAs(admin, { ...details, status: { ...details.status, twoFactorEnabled: true } });
    server.on('POST', DASH_USER_PATHS.role(BOB), reply(200, { message: 'Role changed' }));
    renderApp(PAGE);

    const form = await screen.findByRole('form', { name: 'Role' });
    await userEvent.selectOptions(within(form).getByLabelText('Role'), 'admin');
    await userEvent.type(within(form).getByLabelText('Reason for the role change'), 'Runs the team');
    await userEvent.click(within(form).getByRole('button', { name: 'Change role' }));
    expect(await screen.findByText('Bob Stone is now an admin.')).toBeDefined();
    expect(screen.queryByText(/must turn on two-factor login/)).toBeNull();
  });

  it('shows a moderator what the server sends (no e-mail, birth date or sessions card), no role form and no Unban; Ban is theirs', async () => {
    signedInAs(moderator, bob({ admin: false }));
    renderApp(PAGE);

    expect(await screen.findByRole('heading', { level: 1, name: 'Bob' })).toBeDefined();
    const profile = card('Profile');
    expect(within(profile).queryByText('E-mail')).toBeNull();
    expect(within(profile).queryByText('Birth date')).toBeNull();
    expect(within(profile).getByText('Age').nextElementSibling?.textContent).toBe('36');
    expect(within(profile).getByText('Germany')).toBeDefined();
    // No empty card where the server sent nothing.
    expect(screen.queryByRole('heading', { level: 2, name: 'Sessions' })).toBeNull();
    expect(screen.getByRole('heading', { level: 2, name: 'Ban history' })).toBeDefined();
    expect(screen.queryByRole('form', { name: 'Role' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Unban' })).toBeNull();
    expect(screen.getByRole('button', { name: 'Ban' })).toBeDefined();
  });

  it('offers a moderator no permanent ban and no more than 30 days; a longer suggestion shows, but an admin decides it', async () => {
    const server = signedInAs(moderator, bob({ admin: false }));
    server
      .on(
        'GET',
        `/api/admin/users/${BOB}/penalty-suggestion`,
        reply(200, { kind: 'permanent', tier: 4, explanation: 'A fourth violation: a permanent ban.' }),
      )
      .on('POST', DASH_MODERATION_PATHS.ban(BOB), reply(201, { caseId: CASE }));
    renderApp(PAGE);

    await userEvent.click(await screen.findByRole('button', { name: 'Ban' }));
    const dialog = await screen.findByRole('dialog', { name: 'Ban Bob' });
    expect(await within(dialog).findByText('Permanent ban')).toBeDefined();
    expect(within(dialog).getByText('An admin decides bans longer than 30 days.')).toBeDefined();
    const suggestion = within(dialog).getByRole('radio', { name: /Policy suggestion/ });
    expect(suggestion).toHaveProperty('disabled', true);
    expect(suggestion).toHaveProperty('checked', false);
    expect(within(dialog).getByRole('radio', { name: 'Another penalty' })).toHaveProperty('checked', true);

    const types = within(dialog).getByRole('combobox', { name: 'Penalty type' });
    expect(
      within(types)
        .getAllByRole('option')
        .map((o) => o.textContent),
    ).toEqual(['Warning', 'Restriction']);
    const days = within(dialog).getByLabelText('Days');
    expect(days.getAttribute('max')).toBe('30');

    await userEvent.type(within(dialog).getByLabelText('Reason (the user sees it)'), 'Harassment');
    await userEvent.type(within(dialog).getByLabelText("Why not the policy's suggestion"), 'The longest I may give');
    await userEvent.clear(days);
    await userEvent.type(days, '45');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Ban user' }));
    expect(within(dialog).getByRole('alert').textContent).toBe(
      'A moderator bans for up to 30 days; an admin decides longer bans.',
    );
    expect(server.requestsTo('POST', DASH_MODERATION_PATHS.ban(BOB))).toHaveLength(0);

    await userEvent.clear(days);
    await userEvent.type(days, '30');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Ban user' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(server.requestsTo('POST', DASH_MODERATION_PATHS.ban(BOB)).map((r) => r.body)).toEqual([
      {
        reason: 'Harassment',
        level: 'moderate',
        penalty: { kind: 'restriction', days: 30 },
        overrideReason: 'The longest I may give',
      },
    ]);
  });

  it('lets a moderator follow a suggestion of 30 days or less, and an admin a permanent one', async () => {
    const server = signedInAs(moderator, bob({ admin: false }));
    server.on(
      'GET',
      `/api/admin/users/${BOB}/penalty-suggestion`,
      reply(200, { kind: 'restriction', tier: 3, days: 30, explanation: 'A third violation: 30 days.' }),
    );
    const { unmount } = renderApp(PAGE);
    await userEvent.click(await screen.findByRole('button', { name: 'Ban' }));
    let dialog = await screen.findByRole('dialog', { name: 'Ban Bob' });
    expect(await within(dialog).findByText('Restriction for 30 days')).toBeDefined();
    expect(within(dialog).getByRole('radio', { name: /Policy suggestion/ })).toHaveProperty('checked', true);
    expect(within(dialog).queryByText('An admin decides bans longer than 30 days.')).toBeNull();
    unmount();
    resetBrowser();

    signedInAs(admin, bob()).on(
      'GET',
      `/api/admin/users/${BOB}/penalty-suggestion`,
      reply(200, { kind: 'permanent', tier: 4, explanation: 'A fourth violation: a permanent ban.' }),
    );
    renderApp(PAGE);
    await userEvent.click(await screen.findByRole('button', { name: 'Ban' }));
    dialog = await screen.findByRole('dialog', { name: 'Ban Bob Stone' });
    expect(await within(dialog).findByText('Permanent ban')).toBeDefined();
    expect(within(dialog).getByRole('radio', { name: /Policy suggestion/ })).toHaveProperty('checked', true);
    await userEvent.click(within(dialog).getByRole('radio', { name: 'Another penalty' }));
    const types = within(dialog).getByRole('combobox', { name: 'Penalty type' });
    expect(
      within(types)
        .getAllByRole('option')
        .map((o) => o.textContent),
    ).toContain('Permanent ban');
  });

  it('offers no Ban and no role change on your own page, and a moderator no Ban of staff', async () => {
    signedInAs(aUser({ ...admin, _id: BOB }), bob());
    const { unmount } = renderApp(PAGE);
    expect(await screen.findByRole('heading', { level: 1, name: 'Bob Stone' })).toBeDefined();
    expect(screen.queryByRole('button', { name: 'Ban' })).toBeNull();
    expect(screen.queryByRole('form', { name: 'Role' })).toBeNull();
    unmount();
    resetBrowser();

    const staff = bob({ admin: false });
    signedInAs(moderator, { ...staff, status: { ...staff.status, role: 'moderator' } });
    renderApp(PAGE);
    expect(await screen.findByRole('heading', { level: 1, name: 'Bob' })).toBeDefined();
    expect(screen.queryByRole('button', { name: 'Ban' })).toBeNull();
  });

  it('turns the audit trail’s pages as of the first (each read is recorded on top of the trail)', async () => {
    const server = signedInAs(admin, bob());
    server.on(
      'GET',
      `${DASH_USER_PATHS.details(BOB)}/audit-trail`,
      inTurn(
        reply(200, { ...trail, totalPages: 2, total: 28 }),
        reply(200, { ...trail, page: 2, totalPages: 2, total: 28 }),
      ),
    );
    renderApp(PAGE);
    await screen.findByRole('list', { name: 'Audit trail events' });
    const pages = screen.getByRole('navigation', { name: 'Audit trail pages' });
    await userEvent.click(within(pages).getByRole('button', { name: 'Next' }));
    await waitFor(() => expect(within(pages).getByText(/Page 2 of 2/)).toBeDefined());
    const urls = server.fetch.mock.calls.map(([input]) => String(input)).filter((u) => u.includes('/audit-trail'));
    expect(urls[0]).toMatch(/audit-trail\?page=1$/);
    expect(urls.at(-1)).toMatch(/audit-trail\?page=2&asOf=900%3A900$/);
  });

  it('says once that an approved appeal ended a ban', async () => {
    const ended = aBan({ endedAt: '2026-11-02T10:00:00.000Z', endedHow: 'appeal-approved', appealStatus: 'approved' });
    signedInAs(admin, { ...bob(), bans: [ended] });
    renderApp(PAGE);

    expect(await screen.findByRole('heading', { level: 1, name: 'Bob Stone' })).toBeDefined();
    expect(within(card('Ban history')).getAllByText('Appeal approved')).toHaveLength(1);
  });

  it('says so for an unknown user', async () => {
    signedInAs(admin, null);
    renderApp(PAGE);

    expect((await screen.findByText('No such user.')).closest('[role="alert"]')).not.toBeNull();
  });
});
