import { AUTH_PATHS, type UserInfo } from '@serendip/proto';
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderApp } from '../../test-support/render-app';
import { aUser, inTurn, reply, resetBrowser } from '../auth/auth-test-support';
import { aBan, BANNED_USER_PATHS, callsMade, signedInBanned } from './moderation-test-support';

/** The text of the Ban Status entry named `label` (spec 2: Case ID, REASON, BANNED BY, ...). */
function fact(label: string): HTMLElement {
  const term = screen.getByText(label, { selector: 'dt' });
  const value = term.nextElementSibling;
  if (!(value instanceof HTMLElement)) throw new Error(`no value for ${label}`);
  return value;
}

async function bannedScreen() {
  return screen.findByRole('heading', { level: 1, name: 'Account Restricted' });
}

const ALREADY_APPEALED =
  "You've appealed for this restriction already, you can see further information in the Ban History page.";

describe('the banned screen (spec 2 "Banned-account screen")', () => {
  afterEach(resetBrowser);

  it('replaces a guarded page with the ban status, and calls nothing the server refuses a banned account', async () => {
    const server = signedInBanned();

    const { router } = renderApp('/video-match');

    await bannedScreen();
    expect(router.state.location.pathname).toBe('/video-match');
    expect(screen.queryByRole('heading', { name: 'Select Gender' })).toBeNull();
    expect(screen.getByText(/^Hi Ada,/)).toBeDefined();
    expect(await screen.findByRole('heading', { name: 'Ban Status' })).toBeDefined();
    expect(fact('Case ID').textContent).toBe('case-7f3a');
    expect(fact('Reason').textContent).toBe('Harassment during a call');
    expect(fact('Banned by').textContent).toBe('Grace H.');
    const appeal = within(fact('Appeal Status')).getByText('None');
    expect(appeal.closest('.ui-badge')?.className).toContain('ui-badge--neutral');
    expect(appeal.closest('.ui-badge')?.querySelector('svg')).not.toBeNull();
    expect(fact('Ban date').textContent).toBe('November 19, 2026 at 9:30 AM');
    expect(fact('Expiry').textContent).toBe('November 26, 2030 at 3:04 PM');
    expect(within(fact('Time left')).getByRole('timer').textContent).toMatch(/^\d+d \d\dh \d\dm \d\ds$/);
    // Support contact, the way out and the way to the history.
    expect(screen.getByRole('link', { name: 'support@serendip.local' }).getAttribute('href')).toBe(
      'mailto:support@serendip.local',
    );
    expect(screen.getByRole('link', { name: 'Ban History' }).getAttribute('href')).toBe(
      '/security-center/view-ban-history',
    );
    expect(screen.getByRole('button', { name: 'Log Out' })).toBeDefined();
    expect(callsMade(server)).toEqual([`GET ${AUTH_PATHS.userInfo}`, `GET ${BANNED_USER_PATHS.banInfo}`]);
  });

  it.each([
    ['/', undefined],
    ['/security-center', undefined],
    ['/settings', undefined],
    ['/auth/signup/cs', undefined],
    ['/dashboard', { isAdmin: true }],
  ] as const)('replaces %s too', async (path, overrides?: Partial<UserInfo>) => {
    signedInBanned().on('GET', AUTH_PATHS.userInfo, reply(200, aUser({ isBanned: true, ...overrides })));

    const { router } = renderApp(path);

    await bannedScreen();
    expect(await screen.findByRole('heading', { name: 'Ban Status' })).toBeDefined();
    expect(router.state.location.pathname).toBe(path);
    expect(screen.getAllByRole('heading', { level: 1 })).toHaveLength(1);
  });

  it("says 'Unknown' when the banning account is gone, and 'Permanent' with no countdown when there is no expiry", async () => {
    signedInBanned(aBan({ bannedByWho: null, expiryDate: undefined }));

    renderApp('/video-match');

    await screen.findByRole('heading', { name: 'Ban Status' });
    expect(fact('Banned by').textContent).toBe('Unknown');
    expect(fact('Expiry').textContent).toBe('Permanent');
    expect(screen.queryByRole('timer')).toBeNull();
  });

  it.each([
    ['pending', 'Pending', 'ui-badge--pending'],
    ['approved', 'Approved', 'ui-badge--ok'],
    ['rejected', 'Rejected', 'ui-badge--danger'],
  ] as const)(
    'after an appeal (%s) shows its status and where to follow it, and no second appeal',
    async (status, label, tone) => {
      signedInBanned(aBan({ appealStatus: status, appealExplanation: 'It was not me.' }))
        .on('GET', BANNED_USER_PATHS.banHistory, reply(200, []))
        .on('GET', BANNED_USER_PATHS.warnings, reply(200, []));

      const { router } = renderApp('/video-match');

      await screen.findByRole('heading', { name: 'Ban Status' });
      const badge = within(fact('Appeal Status')).getByText(label).closest('.ui-badge');
      expect(badge?.className).toContain(tone);
      expect(badge?.querySelector('svg')).not.toBeNull();
      expect(screen.getByText(ALREADY_APPEALED)).toBeDefined();
      expect(screen.queryByRole('button', { name: 'Appeal Decision' })).toBeNull();
      expect(screen.getByText(/Contact us at/)).toBeDefined();

      await userEvent.click(screen.getByRole('link', { name: 'View Details' }));
      await waitFor(() => expect(router.state.location.pathname).toBe('/security-center/view-ban-history'));
    },
  );

  it('shows a spinner while the ban loads, and the Error card when it cannot be loaded', async () => {
    const server = signedInBanned();
    const banInfo = server.hold('GET', BANNED_USER_PATHS.banInfo);

    renderApp('/video-match');

    expect((await screen.findByText('Checking your ban status')).closest('[role="status"]')).not.toBeNull();
    await waitFor(() => expect(banInfo.waitingCount()).toBe(1));
    act(() => banInfo.answer(500, { statusCode: 500, message: 'Internal server error' }));

    const card = await screen.findByRole('alert');
    expect(within(card).getByRole('heading', { name: 'Error' })).toBeDefined();
    expect(within(card).getByText(/^An error occurred/).textContent).toBe(
      'An error occurred while checking your ban status. Please contact us at support@serendip.local for further information.',
    );
    expect(within(card).getByRole('link', { name: 'support@serendip.local' })).toBeDefined();
    // Still a way out, and to the history.
    expect(within(card).getByRole('button', { name: 'Log Out' })).toBeDefined();
    expect(screen.queryByRole('heading', { name: 'Ban Status' })).toBeNull();
  });

  it('logs out from the screen', async () => {
    const server = signedInBanned().on('POST', AUTH_PATHS.logout, reply(200, { message: 'Logged out' }));
    const loadPage = vi.fn<(path: string) => void>();

    renderApp('/video-match', { services: { loadPage } });
    await screen.findByRole('heading', { name: 'Ban Status' });
    await userEvent.click(screen.getByRole('button', { name: 'Log Out' }));

    await waitFor(() => expect(loadPage).toHaveBeenCalledWith('/auth/login'));
    expect(server.requestsTo('POST', AUTH_PATHS.logout)).toHaveLength(1);
  });
});

describe('the appeal (spec 2, 4 "Appeal", 5, 8)', () => {
  afterEach(resetBrowser);

  async function openAppealForm() {
    await userEvent.click(await screen.findByRole('button', { name: 'Appeal Decision' }));
    return screen.getByPlaceholderText('Explain why you believe this ban should be reconsidered...');
  }

  it('opens and closes with Appeal Decision and Cancel', async () => {
    signedInBanned();
    renderApp('/video-match');

    await openAppealForm();
    expect(screen.getByRole('button', { name: 'Submit Appeal' })).toBeDefined();
    await userEvent.click(screen.getByRole('button', { name: 'Cancel' }));

    expect(screen.queryByPlaceholderText('Explain why you believe this ban should be reconsidered...')).toBeNull();
    expect(screen.getByRole('button', { name: 'Appeal Decision' })).toBeDefined();
  });

  it('refuses a blank appeal with a toast, and sends nothing', async () => {
    const server = signedInBanned();
    renderApp('/video-match');

    const text = await openAppealForm();
    await userEvent.type(text, '   ');
    await userEvent.click(screen.getByRole('button', { name: 'Submit Appeal' }));

    expect(await screen.findAllByText('Please provide a reason for your appeal.')).not.toHaveLength(0);
    expect(server.requestsTo('PUT', BANNED_USER_PATHS.appeal)).toHaveLength(0);
    expect(text.getAttribute('aria-invalid')).toBe('true');
  });

  it('sends the appeal, says so, closes the form and shows it pending', async () => {
    const server = signedInBanned().on('PUT', BANNED_USER_PATHS.appeal, reply(200, { message: 'Appeal received' }));
    renderApp('/video-match');

    await userEvent.type(await openAppealForm(), '  I was reported by mistake.  ');
    await userEvent.click(screen.getByRole('button', { name: 'Submit Appeal' }));

    expect(await screen.findByText('Appeal submitted successfully.')).toBeDefined();
    expect(server.requestsTo('PUT', BANNED_USER_PATHS.appeal).map((r) => r.body)).toEqual([
      { appealExplanation: 'I was reported by mistake.' },
    ]);
    expect(screen.queryByRole('button', { name: 'Submit Appeal' })).toBeNull();
    expect(within(fact('Appeal Status')).getByText('Pending')).toBeDefined();
    expect(screen.getByText(ALREADY_APPEALED)).toBeDefined();
    expect(screen.getByRole('link', { name: 'View Details' })).toBeDefined();
  });

  it('keeps the form and the text when the appeal fails', async () => {
    signedInBanned().on(
      'PUT',
      BANNED_USER_PATHS.appeal,
      reply(500, { statusCode: 500, message: 'Internal server error' }),
    );
    renderApp('/video-match');

    const text = await openAppealForm();
    await userEvent.type(text, 'Please look again.');
    await userEvent.click(screen.getByRole('button', { name: 'Submit Appeal' }));

    expect(await screen.findAllByText('Failed to submit appeal.')).not.toHaveLength(0);
    expect(screen.getByRole('button', { name: 'Submit Appeal' })).toBeDefined();
    expect((text as HTMLTextAreaElement).value).toBe('Please look again.');
    expect(within(fact('Appeal Status')).getByText('None')).toBeDefined();
  });

  it("says why when the server refuses it (409: already appealed; 400: the field's message)", async () => {
    const server = signedInBanned().on(
      'PUT',
      BANNED_USER_PATHS.appeal,
      inTurn(
        reply(409, { statusCode: 409, message: 'This ban was already appealed' }),
        reply(400, { statusCode: 400, message: ['appealExplanation must be at most 2000 characters'] }),
      ),
    );
    renderApp('/video-match');

    await userEvent.type(await openAppealForm(), 'Please look again.');
    await userEvent.click(screen.getByRole('button', { name: 'Submit Appeal' }));
    expect(await screen.findByText('This ban was already appealed.')).toBeDefined();
    expect(screen.getByText('Failed to submit appeal.')).toBeDefined();

    await userEvent.click(screen.getByRole('button', { name: 'Submit Appeal' }));
    expect(await screen.findByText('Your appeal must be at most 2000 characters.')).toBeDefined();
    expect(server.requestsTo('PUT', BANNED_USER_PATHS.appeal)).toHaveLength(2);
  });
});

describe('the countdown (spec 2, 4 "Ban", 9)', () => {
  afterEach(() => {
    vi.useRealTimers();
    resetBrowser();
  });

  /** Seconds left as the countdown reads them ('2d 03h 04m 30s'). */
  function secondsLeft(): number {
    const [d, h, m, s] = (screen.getByRole('timer').textContent ?? '').match(/\d+/g)!.map(Number);
    return ((d! * 24 + h!) * 60 + m!) * 60 + s!;
  }

  it('counts down every second, reads Expired once past, and lets the user back in once the server ends the ban', async () => {
    // The lazy chunks load before the clock is frozen: only the page's own timers are left to drive.
    await Promise.all([import('./BannedScreen'), import('../../pages/security-center/SecurityCenterPage')]);
    vi.useFakeTimers();
    const now = new Date(2030, 0, 1, 12, 0, 0).getTime();
    vi.setSystemTime(now);
    const expiry = now + (((2 * 24 + 3) * 60 + 4) * 60 + 30) * 1000;
    const server = signedInBanned(aBan({ expiryDate: new Date(expiry).toISOString() }));

    renderApp('/security-center');

    await vi.waitFor(() => expect(screen.getByRole('timer')).toBeDefined());
    expect(screen.getByRole('timer').textContent).toMatch(/^2d 03h 04m \d\ds$/);
    const first = secondsLeft();
    for (const tick of [1, 2, 3]) {
      await act(() => vi.advanceTimersByTimeAsync(1_000));
      expect(secondsLeft()).toBe(first - tick);
    }

    // The server's scheduled check ends the ban meanwhile.
    server.on('GET', AUTH_PATHS.userInfo, reply(200, aUser({ isBanned: false })));
    await act(() => vi.advanceTimersByTimeAsync(expiry - Date.now() - 1_000));
    expect(screen.getByRole('timer').textContent).toMatch(/^0d 00h 00m 0[12]s$/);
    expect(server.requestsTo('GET', AUTH_PATHS.userInfo)).toHaveLength(1);
    // The first tick from the expiry on (ticks run every second from when the screen opened).
    await act(() => vi.advanceTimersByTimeAsync(2_000));
    expect(screen.getByRole('timer').textContent).toBe('Expired');

    // User info is asked again after a short delay (the server's check needs a moment), not at once.
    await act(() => vi.advanceTimersByTimeAsync(4_000));
    expect(server.requestsTo('GET', AUTH_PATHS.userInfo)).toHaveLength(1);
    await act(() => vi.advanceTimersByTimeAsync(2_000));
    await vi.waitFor(() => expect(screen.getByRole('heading', { level: 1, name: 'Security Center' })).toBeDefined());
    expect(screen.queryByRole('heading', { name: 'Account Restricted' })).toBeNull();
  });

  it('lets a banned user delete the account: a right the ban does not take away', async () => {
    const server = signedInBanned().on('POST', '/api/user/delete-account', reply(200, { message: 'Account deleted' }));
    const user = userEvent.setup();
    renderApp('/settings');

    await screen.findByRole('heading', { name: 'Ban Status' });
    await user.click(screen.getByRole('button', { name: 'Delete account' }));
    const dialog = await screen.findByRole('dialog', { name: 'Delete your account?' });
    await user.type(within(dialog).getByLabelText(/password/i), 'violet-harbour-42');
    await user.click(within(dialog).getByRole('button', { name: 'Delete my account' }));

    await waitFor(() => expect(server.requestsTo('POST', '/api/user/delete-account')).toHaveLength(1));
  });
});
