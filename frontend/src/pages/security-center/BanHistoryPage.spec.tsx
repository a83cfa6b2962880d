import { AUTH_PATHS } from '@serendip/proto';
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  aUser,
  inTurn,
  rememberSessionInThisBrowser,
  reply,
  resetBrowser,
  serveFakeApi,
} from '../../features/auth/auth-test-support';
import {
  aHistoryEntry,
  BANNED_USER_PATHS,
  callsMade,
  signedInBanned,
} from '../../features/moderation/moderation-test-support';
import { renderApp } from '../../test-support/render-app';

const PATH = '/security-center/view-ban-history';

const at = (month: number, day: number, hour = 10) => new Date(2026, month, day, hour, 0).toISOString();

/** Two bans of one account as the server lists them: the one still on first. */
const HISTORY = [
  aHistoryEntry({
    caseId: 'case-2',
    reason: 'Explicit content on camera',
    level: 'severe',
    bannedByWho: null,
    banDate: at(9, 1),
    expiryDate: undefined,
    appealStatus: 'rejected',
    appealExplanation: 'My camera showed a film.',
    appealedAt: at(9, 2),
    appealDecision: { at: at(9, 4), note: 'The snapshot shows the user, not a film.' },
    ended: null,
  }),
  aHistoryEntry({
    caseId: 'case-1',
    reason: 'Spam in chat',
    level: 'minor',
    bannedByWho: { firstName: 'Grace', lastName: 'Hopper' },
    banDate: at(2, 3),
    expiryDate: at(2, 6),
    appealStatus: 'approved',
    appealExplanation: 'It was my brother.',
    appealedAt: at(2, 3, 12),
    appealDecision: { at: at(2, 4), note: 'First report, benefit of the doubt.' },
    ended: { at: at(2, 4), how: 'appeal-approved' },
  }),
];

function fact(entry: HTMLElement, label: string): string | null {
  return within(entry).getByText(label, { selector: 'dt' }).nextElementSibling?.textContent ?? null;
}

describe('ban history (spec 2 /security-center/view-ban-history)', () => {
  afterEach(resetBrowser);

  it('lists every ban newest first: reason, level, who, dates, how it ended, the appeal and its decision', async () => {
    serveFakeApi()
      .on('GET', AUTH_PATHS.userInfo, reply(200, aUser()))
      // Oldest first on the wire: the page still shows the newest first.
      .on('GET', BANNED_USER_PATHS.banHistory, reply(200, [...HISTORY].reverse()))
      .on('GET', BANNED_USER_PATHS.warnings, reply(200, []));
    rememberSessionInThisBrowser();

    renderApp(PATH);

    const list = await screen.findByRole('list', { name: 'Bans, newest first' });
    const [active, lifted] = within(list).getAllByRole('article');
    expect(within(active!).getByRole('heading', { level: 2 }).textContent).toBe('Case case-2');
    expect(within(active!).getByText('Active')).toBeDefined();
    expect(within(active!).getByText('Explicit content on camera')).toBeDefined();
    expect(fact(active!, 'Level')).toBe('Severe');
    expect(fact(active!, 'Banned by')).toBe('Unknown');
    expect(fact(active!, 'Ban date')).toBe('October 1, 2026 at 10:00 AM');
    expect(fact(active!, 'Expiry')).toBe('Permanent');
    expect(within(active!).queryByText('Ended', { selector: 'dt' })).toBeNull();
    const rejected = within(active!).getByText('Rejected').closest('.ui-badge');
    expect(rejected?.className).toContain('ui-badge--danger');
    expect(within(active!).getByText('October 2, 2026 at 10:00 AM')).toBeDefined();
    expect(within(active!).getByText('My camera showed a film.')).toBeDefined();
    expect(within(active!).getByText('The snapshot shows the user, not a film.')).toBeDefined();

    expect(within(lifted!).getByRole('heading', { level: 2 }).textContent).toBe('Case case-1');
    expect(within(lifted!).getByText('Appeal approved')).toBeDefined();
    expect(fact(lifted!, 'Level')).toBe('Minor');
    expect(fact(lifted!, 'Banned by')).toBe('Grace H.');
    expect(fact(lifted!, 'Expiry')).toBe('March 6, 2026 at 10:00 AM');
    expect(fact(lifted!, 'Ended')).toBe('March 4, 2026 at 10:00 AM');
    expect(within(lifted!).getByText('Approved').closest('.ui-badge')?.className).toContain('ui-badge--ok');
    expect(within(lifted!).getByText('First report, benefit of the doubt.')).toBeDefined();
  });

  it('says so when there has never been a ban', async () => {
    serveFakeApi()
      .on('GET', AUTH_PATHS.userInfo, reply(200, aUser()))
      .on('GET', BANNED_USER_PATHS.banHistory, reply(200, []))
      .on('GET', BANNED_USER_PATHS.warnings, reply(200, []));
    rememberSessionInThisBrowser();

    renderApp(PATH);

    expect(await screen.findByText('Your account has never been restricted.')).toBeDefined();
    expect(screen.queryByRole('list', { name: 'Bans, newest first' })).toBeNull();
  });

  it('offers to try again when the history cannot be loaded', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    serveFakeApi()
      .on('GET', AUTH_PATHS.userInfo, reply(200, aUser()))
      .on(
        'GET',
        BANNED_USER_PATHS.banHistory,
        inTurn(reply(503, { statusCode: 503, message: 'x' }), reply(200, HISTORY)),
      )
      .on('GET', BANNED_USER_PATHS.warnings, reply(200, []));
    rememberSessionInThisBrowser();

    renderApp(PATH);

    expect(await screen.findByText(/Your ban history could not be loaded/)).toBeDefined();
    await userEvent.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByRole('list', { name: 'Bans, newest first' })).toBeDefined();
  });

  it('stays reachable while banned, when every other guarded page is the banned screen', async () => {
    const server = signedInBanned()
      .on('GET', BANNED_USER_PATHS.banHistory, reply(200, HISTORY))
      .on('GET', BANNED_USER_PATHS.warnings, reply(200, []));

    const { router } = renderApp(PATH);

    expect(await screen.findByRole('heading', { level: 1, name: 'Ban History' })).toBeDefined();
    expect(await screen.findByRole('list', { name: 'Bans, newest first' })).toBeDefined();
    expect(screen.queryByRole('heading', { name: 'Account Restricted' })).toBeNull();
    // Only what the server still answers a banned account.
    expect(callsMade(server).sort()).toEqual(
      [`GET ${AUTH_PATHS.userInfo}`, `GET ${BANNED_USER_PATHS.banHistory}`, `GET ${BANNED_USER_PATHS.warnings}`].sort(),
    );

    // Its way back leads to the banned screen, as does any other page.
    await userEvent.click(screen.getByRole('link', { name: '← Account Restricted' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Account Restricted' })).toBeDefined();
    await act(() => router.navigate('/security-center'));
    await waitFor(() => expect(router.state.location.pathname).toBe('/security-center'));
    expect(screen.getByRole('heading', { level: 1, name: 'Account Restricted' })).toBeDefined();
    expect(screen.queryByRole('heading', { level: 1, name: 'Security Center' })).toBeNull();
  });

  it('lists warnings apart from bans: on the record, restricting nothing', async () => {
    serveFakeApi()
      .on('GET', AUTH_PATHS.userInfo, reply(200, aUser()))
      .on('GET', BANNED_USER_PATHS.banHistory, reply(200, []))
      .on(
        'GET',
        BANNED_USER_PATHS.warnings,
        reply(200, [
          { caseId: 'case-3', reason: 'Spam links in chat', level: 'minor', warnedAt: at(4, 2), warnedByWho: null },
        ]),
      );
    rememberSessionInThisBrowser();

    renderApp(PATH);

    const list = await screen.findByRole('list', { name: 'Warnings, newest first' });
    const [warning] = within(list).getAllByRole('article');
    expect(within(warning!).getByText('Spam links in chat')).toBeDefined();
    expect(within(warning!).getByText('Warning')).toBeDefined();
    expect(fact(warning!, 'Level')).toBe('Minor');
    expect(fact(warning!, 'Warned by')).toBe('Unknown');
    expect(fact(warning!, 'Date')).toBe('May 2, 2026 at 10:00 AM');
    expect(screen.queryByText('Your account has never been restricted.')).toBeNull();
    expect(screen.queryByRole('list', { name: 'Bans, newest first' })).toBeNull();
  });

  it('reads the history again when the ban is lifted while it is open, so the decision shows', async () => {
    const pending = aHistoryEntry({ caseId: 'case-5', reason: 'Spam in chat', appealStatus: 'pending' });
    const approved = { ...pending, appealStatus: 'approved', ended: { at: at(5, 1), how: 'appeal-approved' } };
    signedInBanned()
      .on('GET', AUTH_PATHS.userInfo, inTurn(reply(200, aUser({ isBanned: true })), reply(200, aUser())))
      .on('GET', BANNED_USER_PATHS.banHistory, inTurn(reply(200, [pending]), reply(200, [approved])))
      .on('GET', BANNED_USER_PATHS.warnings, reply(200, []));
    const { socket } = renderApp(PATH);
    expect(await screen.findByText('Pending')).toBeDefined();
    act(() => socket.serverConnects());

    act(() =>
      socket.serverPushes({
        event: 'banStatusUpdated',
        payload: { eventId: 'e-1', userId: 'user-1', isBanned: false },
      }),
    );

    expect(await screen.findByText('Appeal approved')).toBeDefined();
  });
});
