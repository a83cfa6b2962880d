import { AUTH_PATHS, type DashReport } from '@serendip/proto';
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  aUser,
  rememberSessionInThisBrowser,
  reply,
  resetBrowser,
  serveFakeApi,
} from '../../../features/auth/auth-test-support';
import { renderApp } from '../../../test-support/render-app';
import '../../../ui/test-polyfills';

const REPORTS = '/api/dash/report/get-all';

function aReport(overrides: Partial<DashReport> = {}): DashReport {
  return {
    _id: 'report-1',
    number: 7,
    type: 'videosession',
    reason: 'harassment',
    severity: 'high',
    reportedByWho: { _id: 'ada-id', firstName: 'Ada' },
    reportedUser: { _id: 'bob-id', firstName: 'Bob' },
    screenshot: '/api/admin/reports/report-1/screenshot',
    serverSnapshot: '/api/admin/snapshots/snap-1',
    createdAt: '2026-05-02T10:00:00.000Z',
    status: 'open',
    caseId: null,
    ...overrides,
  };
}

/** A moderator on the report table, the server holding `reports` over `pages` pages. */
function onReportsPage(reports: DashReport[], { total = reports.length, pages = 1 } = {}) {
  const server = serveFakeApi()
    .on('GET', AUTH_PATHS.userInfo, reply(200, aUser({ role: 'moderator', twoFactorEnabled: true })))
    .on('GET', REPORTS, reply(200, reports, { 'X-Total-Count': String(total), 'X-Total-Pages': String(pages) }));
  rememberSessionInThisBrowser();
  const app = renderApp('/dashboard/reports');
  return { ...app, server };
}

const urlsOf = (server: ReturnType<typeof serveFakeApi>, path: string) =>
  server.fetch.mock.calls.map(([input]) => String(input)).filter((url) => url.startsWith(path));

describe('Reports page (spec 2 "Reports page")', () => {
  afterEach(() => {
    resetBrowser();
    vi.restoreAllMocks();
  });

  it('shows a report of a comment as a Comment, with its words and a link to the post instead of pictures', async () => {
    onReportsPage([
      aReport({
        type: 'comment',
        reason: 'spam',
        screenshot: undefined,
        serverSnapshot: undefined,
        content: { postId: 'post-1', id: 'comment-1', text: 'Buy followers now' },
      }),
      aReport({
        _id: 'report-2',
        number: 6,
        type: 'post',
        screenshot: '/api/admin/reports/report-2/screenshot',
        serverSnapshot: undefined,
        content: { postId: 'post-2', id: 'post-2' },
      }),
    ]);
    const first = await screen.findByRole('row', { name: 'Report #7' });
    expect(within(first).getByText('Comment')).toBeDefined();
    expect(within(first).getByText('Buy followers now')).toBeDefined();
    expect(within(first).getByRole('link', { name: 'Open post' }).getAttribute('href')).toBe('/feed/post/post-1');
    const second = screen.getByRole('row', { name: 'Report #6' });
    expect(within(second).getByText('Post')).toBeDefined();
    expect(within(second).getByText('Erased with the account')).toBeDefined();
    // A reported post's picture is kept as its evidence.
    expect(within(second).getByRole('button', { name: 'Enlarge the evidence of report #6' })).toBeDefined();
  });

  it('shows the spec’s columns, severity colours, names linking to the user page, and pages', async () => {
    const { server } = onReportsPage(
      [
        aReport(),
        aReport({ _id: 'report-2', number: 6, severity: 'medium', reason: 'scamming', screenshot: undefined }),
        aReport({
          _id: 'report-3',
          number: 5,
          severity: 'low',
          reason: 'spam',
          reportedByWho: { _id: 'gone', firstName: null, erased: true },
          screenshot: undefined,
          serverSnapshot: undefined,
        }),
      ],
      { total: 30, pages: 2 },
    );

    const table = await screen.findByRole('table', { name: 'Reports, newest first' });
    expect(screen.getByRole('heading', { level: 1, name: 'Reports' })).toBeDefined();
    const headers = within(table)
      .getAllByRole('columnheader')
      .map((th) => th.textContent);
    expect(headers.slice(0, 8)).toEqual([
      '#',
      'Type',
      'Reason',
      'Severity',
      'Reported By',
      'Reported User',
      'Screenshot',
      'Date',
    ]);
    const first = screen.getByRole('row', { name: 'Report #7' });
    expect(within(first).getByText('High').className).toContain('ui-badge--danger');
    expect(within(screen.getByRole('row', { name: 'Report #6' })).getByText('Medium').className).toContain(
      'ui-badge--pending',
    );
    const low = screen.getByRole('row', { name: 'Report #5' });
    expect(within(low).getByText('Low').className).toContain('dash-severity--low');
    expect(within(low).getByText('Erased account')).toBeDefined();
    expect(within(low).getByText('None')).toBeDefined();
    expect(within(first).getByRole('link', { name: 'Ada' }).getAttribute('href')).toBe(
      '/dashboard/user-management/ada-id/view-details',
    );
    expect(within(first).getByRole('link', { name: 'Bob' }).getAttribute('href')).toBe(
      '/dashboard/user-management/bob-id/view-details',
    );
    expect(urlsOf(server, REPORTS)[0]).toContain('page=1&status=open');

    expect(screen.getByText('Page 1 of 2')).toBeDefined();
    await userEvent.click(screen.getByRole('button', { name: 'Next' }));
    await waitFor(() => expect(urlsOf(server, REPORTS).some((u) => u.includes('page=2'))).toBe(true));
    expect(await screen.findByText('Page 2 of 2')).toBeDefined();

    await userEvent.selectOptions(screen.getByRole('combobox', { name: 'Severity' }), 'high');
    await waitFor(() => expect(urlsOf(server, REPORTS).at(-1)).toContain('page=1&status=open&severity=high'));
  });

  it('loads no evidence until asked, then enlarges the screenshot beside the server snapshot', async () => {
    const { server } = onReportsPage([
      aReport(),
      aReport({ _id: 'report-2', number: 6, screenshot: undefined }),
      aReport({ _id: 'report-3', number: 5, screenshot: undefined, serverSnapshot: undefined }),
    ]);
    const view = await screen.findByRole('button', { name: 'Enlarge the evidence of report #7' });
    // Every look at evidence is recorded: a page view must not fetch (nor show) a picture.
    expect(view.textContent).toBe('View (2)');
    expect(screen.getByRole('button', { name: 'Enlarge the evidence of report #6' }).textContent).toBe('View (1)');
    expect(within(screen.getByRole('row', { name: 'Report #5' })).getByText('None')).toBeDefined();
    expect(document.querySelectorAll('img')).toHaveLength(0);
    const pictureRequests = () =>
      server.fetch.mock.calls.map(([input]) => String(input)).filter((u) => /screenshot|snapshots/.test(u));
    expect(pictureRequests()).toEqual([]);

    await userEvent.click(view);
    const dialog = await screen.findByRole('dialog', { name: 'Evidence for report #7' });
    expect(within(dialog).getByRole('img', { name: "Reporter's screenshot, report #7" }).getAttribute('src')).toBe(
      '/api/admin/reports/report-1/screenshot',
    );
    expect(within(dialog).getByRole('img', { name: 'Server snapshot, report #7' }).getAttribute('src')).toBe(
      '/api/admin/snapshots/snap-1',
    );
  });

  it('shows a report filed meanwhile at once, and another moderator’s review of it', async () => {
    const { socket } = onReportsPage([]);
    expect(await screen.findByText('No open reports. All caught up.')).toBeDefined();
    act(() => socket.serverConnects());

    act(() => socket.serverPushes({ event: 'reportFiled', payload: { ...aReport({ number: 8 }), eventId: 'e-1' } }));

    const row = await screen.findByRole('row', { name: 'Report #8' });
    expect(within(row).getByRole('link', { name: 'Bob' })).toBeDefined();
    // Its evidence is offered, not loaded: the reporter's screenshot and the server's frame.
    expect(within(row).getByRole('button', { name: 'Enlarge the evidence of report #8' }).textContent).toBe('View (2)');
    expect(row.querySelectorAll('img')).toHaveLength(0);
    expect(screen.getByText('1 new report')).toBeDefined();

    act(() =>
      socket.serverPushes({
        event: 'reportResolved',
        payload: { ...aReport({ number: 8, status: 'dismissed' }), eventId: 'e-2' },
      }),
    );
    expect(await within(row).findByText('Dismissed')).toBeDefined();
    expect(within(row).queryByRole('button', { name: 'Ban' })).toBeNull();
  });

  it('dismisses with an optional note and marks false only with one, each in a dialog, and says so', async () => {
    const { server } = onReportsPage([aReport(), aReport({ _id: 'report-2', number: 6 })]);
    server
      .on('POST', '/api/admin/reports/report-1/resolve', reply(200, { message: 'Report marked dismissed' }))
      .on('POST', '/api/admin/reports/report-2/resolve', reply(200, { message: 'Report marked false' }));

    const first = await screen.findByRole('row', { name: 'Report #7' });
    await userEvent.click(within(first).getByRole('button', { name: 'Dismiss' }));
    const dismiss = await screen.findByRole('dialog', { name: 'Dismiss report #7' });
    expect(within(dismiss).getByRole('textbox', { name: /Note/ })).toBeDefined();
    await userEvent.click(within(dismiss).getByRole('button', { name: 'Dismiss report' }));
    expect(await within(first).findByText('Dismissed')).toBeDefined();
    expect(await screen.findByText('Report #7 dismissed.')).toBeDefined();
    expect(server.requestsTo('POST', '/api/admin/reports/report-1/resolve')[0]?.body).toEqual({
      outcome: 'dismissed',
    });

    // Marking false judges the reporter: the note is required, and nothing is sent without it.
    const second = screen.getByRole('row', { name: 'Report #6' });
    await userEvent.click(within(second).getByRole('button', { name: 'Mark false' }));
    const markFalse = await screen.findByRole('dialog', { name: 'Mark report #6 false' });
    await userEvent.click(within(markFalse).getByRole('button', { name: 'Mark false' }));
    expect(within(markFalse).getByText('Say why the report is false: it counts against the reporter.')).toBeDefined();
    expect(server.requestsTo('POST', '/api/admin/reports/report-2/resolve')).toHaveLength(0);
    await userEvent.type(
      within(markFalse).getByRole('textbox', { name: /Why is it false/ }),
      'Bob was polite all call',
    );
    await userEvent.click(within(markFalse).getByRole('button', { name: 'Mark false' }));
    expect(await within(second).findByText('False report')).toBeDefined();
    expect(await screen.findByText('Report #6 marked false.')).toBeDefined();
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(server.requestsTo('POST', '/api/admin/reports/report-2/resolve')[0]?.body).toEqual({
      outcome: 'false',
      note: 'Bob was polite all call',
    });
  });

  it('keeps the dialog open and says why when the server refuses the review', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const { server } = onReportsPage([aReport()]);
    server.on(
      'POST',
      '/api/admin/reports/report-1/resolve',
      reply(409, { statusCode: 409, message: 'This report was already reviewed (dismissed)' }),
    );
    const row = await screen.findByRole('row', { name: 'Report #7' });
    await userEvent.click(within(row).getByRole('button', { name: 'Dismiss' }));
    const dismiss = await screen.findByRole('dialog', { name: 'Dismiss report #7' });
    await userEvent.type(within(dismiss).getByRole('textbox', { name: /Note/ }), 'Nothing against the rules');
    await userEvent.click(within(dismiss).getByRole('button', { name: 'Dismiss report' }));
    expect(await within(dismiss).findByText('This report was already reviewed (dismissed)')).toBeDefined();
    expect(server.requestsTo('POST', '/api/admin/reports/report-1/resolve')[0]?.body).toEqual({
      outcome: 'dismissed',
      note: 'Nothing against the rules',
    });
  });

  it('offers no review of a report about the viewer or one they filed, and says another staff member reviews it', async () => {
    // The viewer is aUser's user-1.
    const { socket } = onReportsPage([
      aReport({ reportedUser: { _id: 'user-1', firstName: 'Mona' }, canReview: false }),
      aReport({ _id: 'report-2', number: 6, reportedByWho: { _id: 'user-1', firstName: 'Mona' }, canReview: false }),
      aReport({ _id: 'report-3', number: 5, canReview: true }),
    ]);

    const about = await screen.findByRole('row', { name: 'Report #7' });
    expect(within(about).getByText('About you: another staff member reviews it.')).toBeDefined();
    for (const name of ['Dismiss', 'Mark false', 'Ban'])
      expect(within(about).queryByRole('button', { name })).toBeNull();
    const filed = screen.getByRole('row', { name: 'Report #6' });
    expect(within(filed).getByText('Filed by you: another staff member reviews it.')).toBeDefined();
    expect(within(filed).queryByRole('button', { name: 'Ban' })).toBeNull();
    expect(within(screen.getByRole('row', { name: 'Report #5' })).getByRole('button', { name: 'Ban' })).toBeDefined();

    // A live arrival about the viewer (pushes reach all staff alike, without canReview) is theirs to leave, too.
    act(() => socket.serverConnects());
    act(() =>
      socket.serverPushes({
        event: 'reportFiled',
        payload: {
          ...aReport({ _id: 'report-9', number: 9, reportedUser: { _id: 'user-1', firstName: 'Mona' } }),
          createdAt: '2026-05-02T11:00:00.000Z',
          eventId: 'e-9',
        },
      }),
    );
    const arrived = await screen.findByRole('row', { name: 'Report #9' });
    expect(within(arrived).getByText('About you: another staff member reviews it.')).toBeDefined();
    expect(within(arrived).queryByRole('button', { name: 'Dismiss' })).toBeNull();
  });

  it('bans from a report with the policy’s suggestion, and asks why when another penalty is chosen', async () => {
    const { server } = onReportsPage([aReport()]);
    server
      .on(
        'GET',
        '/api/admin/users/bob-id/penalty-suggestion',
        reply(200, { kind: 'restriction', tier: 1, days: 1, explanation: 'A first moderate violation: 24 hours.' }),
      )
      .on('POST', '/api/admin/users/bob-id/ban', reply(201, { caseId: 'case-1' }));

    const row = await screen.findByRole('row', { name: 'Report #7' });
    await userEvent.click(within(row).getByRole('button', { name: 'Ban' }));
    const dialog = await screen.findByRole('dialog', { name: 'Ban Bob' });
    expect(await within(dialog).findByText('Restriction for 1 day')).toBeDefined();
    // The report sets the start: its severity's level and a reason naming it.
    expect(within(dialog).getByText('Acting on report #7.')).toBeDefined();
    expect(within(dialog).getByRole('combobox', { name: 'Violation level' })).toHaveProperty('value', 'severe');
    expect(server.fetch.mock.calls.map(([input]) => String(input))).toContainEqual(
      expect.stringContaining('/api/admin/users/bob-id/penalty-suggestion?level=severe'),
    );
    expect(within(dialog).getByText('A first moderate violation: 24 hours.')).toBeDefined();

    // Another penalty without a reason: refused here, nothing sent.
    await userEvent.click(within(dialog).getByRole('radio', { name: 'Another penalty' }));
    await userEvent.click(within(dialog).getByRole('button', { name: 'Ban user' }));
    expect(within(dialog).getByRole('alert').textContent).toBe(
      'Say why you choose another penalty than the policy suggests.',
    );
    expect(server.requestsTo('POST', '/api/admin/users/bob-id/ban')).toHaveLength(0);

    await userEvent.click(within(dialog).getByRole('radio', { name: /Policy suggestion/ }));
    await userEvent.click(within(dialog).getByRole('button', { name: 'Ban user' }));

    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(server.requestsTo('POST', '/api/admin/users/bob-id/ban')[0]?.body).toEqual({
      reason: 'Harassment (report #7)',
      level: 'severe',
      penalty: { kind: 'restriction', days: 1 },
      reportId: 'report-1',
    });
    expect(await within(row).findByText('Actioned')).toBeDefined();
  });

  it('only logs a failure to load, and offers to try again', async () => {
    const logged = vi.spyOn(console, 'error').mockImplementation(() => {});
    const { server } = onReportsPage([]);
    server.on('GET', REPORTS, reply(500, { statusCode: 500, message: 'Internal server error' }));

    expect(await screen.findByText('The reports could not be loaded.')).toBeDefined();
    expect(logged).toHaveBeenCalledWith('Reports load failure', expect.anything());
    server.on('GET', REPORTS, reply(200, [aReport()], { 'X-Total-Count': '1', 'X-Total-Pages': '1' }));
    await userEvent.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByRole('row', { name: 'Report #7' })).toBeDefined();
  });
});
