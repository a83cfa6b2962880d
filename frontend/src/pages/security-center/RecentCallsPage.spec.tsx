import { AUTH_PATHS, MODERATION_PATHS } from '@serendip/proto';
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
} from '../../features/auth/auth-test-support';
import { aRecentCall } from '../../features/reports/reports-test-support';
import { renderApp } from '../../test-support/render-app';
import '../../ui/test-polyfills';

function signedIn(prepare: (server: FakeServer) => void) {
  const server = serveFakeApi().on('GET', AUTH_PATHS.userInfo, reply(200, aUser()));
  prepare(server);
  rememberSessionInThisBrowser();
  return server;
}

const rowOf = (name: string) => screen.getByText(name, { selector: '.recent-call__name' }).closest('li')!;

describe('Recent calls (/security-center/recent-calls)', () => {
  afterEach(resetBrowser);

  it('lists the calls of the last 24 hours: who, where from, when, how long, and Report or Reported', async () => {
    const bobsCall = aRecentCall();
    signedIn((server) =>
      server.on(
        'GET',
        MODERATION_PATHS.recentCalls,
        reply(200, [
          bobsCall,
          aRecentCall({
            matchId: 'match-2',
            partner: { firstName: 'Chloé', avatar: null, country: null },
            endedAt: null,
            durationMs: null,
            reported: true,
          }),
        ]),
      ),
    );
    renderApp('/security-center/recent-calls');

    expect(await screen.findByRole('heading', { level: 1, name: 'Recent calls' })).toBeDefined();
    const bob = await waitFor(() => rowOf('Bob'));
    // No picture: the avatar shows the initial.
    expect(within(bob).getByText('B')).toBeDefined();
    expect(within(bob).getByText('Germany')).toBeDefined();
    expect(within(bob).getByText('24 minutes ago').getAttribute('datetime')).toBe(bobsCall.startedAt);
    expect(within(bob).getByText('4 min 12 s')).toBeDefined();
    expect(within(bob).getByRole('button', { name: 'Report Bob' })).toBeDefined();

    const chloe = rowOf('Chloé');
    expect(within(chloe).getByText('Ongoing')).toBeDefined();
    expect(within(chloe).getByText('Reported')).toBeDefined();
    expect(within(chloe).queryByRole('button')).toBeNull();
  });

  it('says when there were no calls', async () => {
    signedIn((server) => server.on('GET', MODERATION_PATHS.recentCalls, reply(200, [])));
    renderApp('/security-center/recent-calls');

    expect(await screen.findByText('No calls in the last 24 hours.')).toBeDefined();
  });

  it('says when the list could not be loaded, and tries again on request', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    signedIn((server) =>
      server.on(
        'GET',
        MODERATION_PATHS.recentCalls,
        inTurn(reply(503, { statusCode: 503, message: 'Service Unavailable' }), reply(200, [aRecentCall()])),
      ),
    );
    renderApp('/security-center/recent-calls');

    expect((await screen.findByRole('alert')).textContent).toContain('Your recent calls could not be loaded.');
    await userEvent.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByRole('button', { name: 'Report Bob' })).toBeDefined();
  });

  it('reports a past call without a screenshot, naming the call only, and marks it Reported', async () => {
    const user = userEvent.setup();
    const server = signedIn((s) =>
      s
        .on('GET', MODERATION_PATHS.recentCalls, reply(200, [aRecentCall()]))
        .on('POST', MODERATION_PATHS.submitReport, reply(201, { reportId: 'report-1', message: 'Filed' })),
    );
    renderApp('/security-center/recent-calls');

    await user.click(await screen.findByRole('button', { name: 'Report Bob' }));
    const dialog = await screen.findByRole('dialog', { name: 'Report User' });
    expect(
      within(dialog).getByText(
        'This call has ended, so no screenshot can be taken now. You can send the report without one.',
      ),
    ).toBeDefined();
    expect(within(dialog).queryByRole('button', { name: 'Take screenshot' })).toBeNull();

    await user.selectOptions(within(dialog).getByLabelText('Reason'), 'self_promotion');
    expect((within(dialog).getByLabelText('Severity') as HTMLSelectElement).value).toBe('low');
    await user.click(within(dialog).getByRole('button', { name: 'Submit report' }));

    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Report User' })).toBeNull());
    expect(server.requestsTo('POST', MODERATION_PATHS.submitReport).map((r) => r.body)).toEqual([
      { matchId: 'match-1', reason: 'self_promotion', severity: 'low', type: 'videosession' },
    ]);
    expect(within(rowOf('Bob')).getByText('Reported')).toBeDefined();
  });

  it('opens the report of the call a link names (the feedback card’s Report this call)', async () => {
    signedIn((server) =>
      server.on('GET', MODERATION_PATHS.recentCalls, reply(200, [aRecentCall(), aRecentCall({ matchId: 'match-0' })])),
    );
    const { router } = renderApp('/security-center/recent-calls?report=match-1');

    const dialog = await screen.findByRole('dialog', { name: 'Report User' });
    expect(within(dialog).getByText('About your call with Bob.')).toBeDefined();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Report User' })).toBeNull());
    expect(router.state.location.search).toBe('');
  });

  it('says the user data is missing when the call has no id', async () => {
    const user = userEvent.setup();
    const server = signedIn((s) =>
      s.on('GET', MODERATION_PATHS.recentCalls, reply(200, [aRecentCall({ matchId: '' })])),
    );
    renderApp('/security-center/recent-calls');

    await user.click(await screen.findByRole('button', { name: 'Report Bob' }));
    const dialog = await screen.findByRole('dialog', { name: 'Report User' });
    await user.selectOptions(within(dialog).getByLabelText('Reason'), 'other');
    await user.click(within(dialog).getByRole('button', { name: 'Submit report' }));

    expect((await within(dialog).findByRole('alert')).textContent).toBe('Missing user data for report.');
    expect(server.requestsTo('POST', MODERATION_PATHS.submitReport)).toEqual([]);
  });

  it('is for signed-in users only', async () => {
    serveFakeApi();
    const { router } = renderApp('/security-center/recent-calls');

    expect(await screen.findByText('Unauthorized, Please Log In.')).toBeDefined();
    await waitFor(() =>
      expect(router.state.location.search).toBe(`?redirect=${encodeURIComponent('/security-center/recent-calls')}`),
    );
  });
});
