import {
  AUTH_PATHS,
  DASH_LOGS_PATH,
  HEALTH_MESSAGES,
  HEALTH_PATH,
  type LogEntry,
  type LogLevel,
} from '@serendip/proto';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import {
  aUser,
  type FakeServer,
  inTurn,
  offline,
  rememberSessionInThisBrowser,
  reply,
  resetBrowser,
  serveFakeApi,
} from '../../../features/auth/auth-test-support';
import { renderApp } from '../../../test-support/render-app';

const PAGE_PATH = '/dashboard/server-logs';

function entry(n: number, level: LogLevel = 'info'): LogEntry {
  return {
    id: String(1000 - n),
    timestamp: new Date(Date.UTC(2026, 0, 2, 12, 0, 0) - n * 1000).toISOString(),
    level,
    message: `line ${n}`,
  };
}

/** An admin on the System Log page, the log served from `pages` (page n is pages[n - 1]); answers the server. */
function adminServer(pages: LogEntry[][] = [[entry(1)]]): FakeServer {
  const server = serveFakeApi().on(
    'GET',
    AUTH_PATHS.userInfo,
    reply(200, aUser({ isAdmin: true, role: 'admin', twoFactorEnabled: true })),
  );
  server.on('GET', DASH_LOGS_PATH, (request) => {
    const { page } = logQueryOf(server, -1);
    return reply(200, { success: true, logs: pages[page - 1] ?? [], page, totalPages: pages.length })(request);
  });
  rememberSessionInThisBrowser();
  return server;
}

/** The query of the `index`th call to GET /api/dash/logs (negative: from the end). */
function logQueryOf(server: FakeServer, index: number) {
  const urls = server.fetch.mock.calls
    .map(([input]) => new URL(String(input), 'http://localhost'))
    .filter((url) => url.pathname === DASH_LOGS_PATH);
  const url = urls.at(index)!;
  return { page: Number(url.searchParams.get('page')), level: url.searchParams.get('level') };
}

async function openPage() {
  renderApp(PAGE_PATH);
  const heading = await screen.findByRole('heading', { name: 'System Log' });
  return within(heading.closest('section')!);
}

type PageQueries = Awaited<ReturnType<typeof openPage>>;

const messagesShown = (page: PageQueries) =>
  page.queryAllByRole('listitem').map((item: HTMLElement) => item.querySelector('code')?.textContent);

describe('System Log page (spec 2, 4 "Log paging", 8)', () => {
  afterEach(resetBrowser);

  it('shows the server status and the newest lines, and Load More appends pages until totalPages', async () => {
    adminServer([[entry(1, 'error'), entry(2, 'warn')], [entry(3), entry(4)], [entry(5)]]);
    const page = await openPage();

    expect(await page.findByText('Server Operational')).toBeDefined();
    await waitFor(() => expect(messagesShown(page)).toEqual(['line 1', 'line 2']));
    const first = page.getAllByRole('listitem')[0]!;
    expect(within(first).getByText('error')).toBeDefined();
    expect(first.querySelector('time')?.getAttribute('dateTime')).toBe(entry(1).timestamp);

    await userEvent.click(page.getByRole('button', { name: 'Load More' }));
    await waitFor(() => expect(messagesShown(page)).toEqual(['line 1', 'line 2', 'line 3', 'line 4']));
    await userEvent.click(page.getByRole('button', { name: 'Load More' }));
    await waitFor(() => expect(messagesShown(page)).toEqual(['line 1', 'line 2', 'line 3', 'line 4', 'line 5']));

    // Page 3 of 3: nothing more to load.
    expect(page.queryByRole('button', { name: 'Load More' })).toBeNull();
  });

  it('shows a line once when a newer line pushed it onto the next page', async () => {
    adminServer([
      [entry(1), entry(2)],
      [entry(2), entry(3)],
    ]);
    const page = await openPage();
    await waitFor(() => expect(messagesShown(page)).toEqual(['line 1', 'line 2']));
    await userEvent.click(page.getByRole('button', { name: 'Load More' }));
    await waitFor(() => expect(messagesShown(page)).toEqual(['line 1', 'line 2', 'line 3']));
  });

  it('filters by level, from page 1 again', async () => {
    const server = adminServer([[entry(1), entry(2)], [entry(3)]]);
    const page = await openPage();
    await waitFor(() => expect(messagesShown(page)).toHaveLength(2));
    expect(logQueryOf(server, -1)).toEqual({ page: 1, level: null });

    server.on('GET', DASH_LOGS_PATH, reply(200, { success: true, logs: [entry(9, 'error')], totalPages: 1 }));
    await userEvent.click(page.getByRole('button', { name: 'Error' }));

    await waitFor(() => expect(messagesShown(page)).toEqual(['line 9']));
    expect(logQueryOf(server, -1)).toEqual({ page: 1, level: 'error' });
    expect(page.getByRole('button', { name: 'Error' }).getAttribute('aria-pressed')).toBe('true');
    expect(page.queryByRole('button', { name: 'Load More' })).toBeNull();
  });

  it("says 'No logs available.' when there are none", async () => {
    adminServer([]);
    const page = await openPage();
    expect(await page.findByText('No logs available.')).toBeDefined();
    expect(page.queryByRole('button', { name: 'Load More' })).toBeNull();
  });

  it('shows Server Down and says the server is unreachable when the API cannot be reached, until a refresh finds it', async () => {
    const server = adminServer();
    const page = await openPage();
    await page.findByText('Server Operational');

    server.on('GET', HEALTH_PATH, offline());
    await userEvent.click(page.getByRole('button', { name: 'Refresh Server Status' }));
    expect(await page.findByText('Server Down')).toBeDefined();
    expect(await screen.findByText('Server is unreachable.')).toBeDefined();

    server.on('GET', HEALTH_PATH, reply(200, { message: HEALTH_MESSAGES.up }));
    await userEvent.click(page.getByRole('button', { name: 'Refresh Server Status' }));
    expect(await page.findByText('Server Operational')).toBeDefined();
  });

  it("shows Checking... while the check runs, then Server Down and 'Unexpected response.' on a 503", async () => {
    const server = adminServer();
    const page = await openPage();
    await page.findByText('Server Operational');

    const health = server.hold('GET', HEALTH_PATH);
    await userEvent.click(page.getByRole('button', { name: 'Refresh Server Status' }));
    expect(page.getByText('Checking...')).toBeDefined();

    health.answer(503, { message: HEALTH_MESSAGES.down, reason: 'database unreachable' });
    expect(await page.findByText('Server Down')).toBeDefined();
    expect(await screen.findByText('Unexpected response.')).toBeDefined();
  });

  it("says 'Failed to fetch logs.' when the server answers success: false", async () => {
    const server = adminServer();
    server.on('GET', DASH_LOGS_PATH, reply(200, { success: false }));
    await openPage();
    expect(await screen.findByText('Failed to fetch logs.')).toBeDefined();
  });

  it("says 'Error fetching logs. Please try again later.' when the request fails, and can try again", async () => {
    const server = adminServer();
    server.on('GET', DASH_LOGS_PATH, inTurn(offline(), reply(200, { success: true, logs: [entry(7)], totalPages: 1 })));
    const page = await openPage();

    expect(await screen.findAllByText('Error fetching logs. Please try again later.')).not.toHaveLength(0);
    await userEvent.click(page.getByRole('button', { name: 'Try again' }));
    await waitFor(() => expect(messagesShown(page)).toEqual(['line 7']));
  });

  it('keeps what was shown when Load More fails', async () => {
    const server = adminServer([[entry(1)], [entry(2)]]);
    const page = await openPage();
    await waitFor(() => expect(messagesShown(page)).toEqual(['line 1']));

    server.on('GET', DASH_LOGS_PATH, reply(500, { statusCode: 500, message: 'Internal server error' }));
    await userEvent.click(page.getByRole('button', { name: 'Load More' }));

    expect(await screen.findByText('Error fetching logs. Please try again later.')).toBeDefined();
    expect(messagesShown(page)).toEqual(['line 1']);
    expect(page.getByRole('button', { name: 'Load More' })).toBeDefined();
  });
});
