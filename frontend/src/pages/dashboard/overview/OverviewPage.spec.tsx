import type { DashboardCounters, DashboardOverview } from '@serendip/proto';
import { AUTH_PATHS } from '@serendip/proto';
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

const OVERVIEW_PATH = '/api/dash/overview';

const counters = (overrides: Partial<DashboardCounters> = {}): DashboardCounters => ({
  onlineNow: 4,
  searching: 2,
  inCalls: 0,
  relayedCalls: 0,
  reportsToday: 1,
  openReports: 3,
  openAppeals: 1,
  activeBans: 5,
  ...overrides,
});

function anOverview(overrides: Partial<DashboardCounters> = {}, at = '2026-11-26T03:00:00.000Z'): DashboardOverview {
  return {
    counters: counters(overrides),
    charts: {
      hours: Array.from({ length: 24 }, (_, i) => ({
        hour: new Date(Date.UTC(2026, 10, 25, 4 + i)).toISOString(),
        matches: 0,
        medianWaitMs: null,
        medianCallMs: null,
      })),
      days: Array.from({ length: 14 }, (_, i) => ({
        day: new Date(Date.UTC(2026, 10, 13 + i)).toISOString().slice(0, 10),
        reports: 0,
        bans: 0,
        p2p: 0,
        relayed: 0,
      })),
    },
    sfu: [],
    at,
  };
}

/** An admin on /dashboard, the overview answering `overview`, the system socket connected. */
async function onTheOverview(status = 200, overview: DashboardOverview = anOverview()) {
  const server = serveFakeApi()
    .on('GET', AUTH_PATHS.userInfo, reply(200, aUser({ isAdmin: true, role: 'admin', twoFactorEnabled: true })))
    .on('GET', OVERVIEW_PATH, reply(status, status === 200 ? overview : { statusCode: status, message: 'Nope' }));
  rememberSessionInThisBrowser();
  const app = renderApp('/dashboard');
  await screen.findByRole('heading', { level: 1, name: 'Overview' });
  act(() => app.socket.serverConnects());
  return { ...app, server };
}

const counter = (name: string) => screen.getByLabelText(name);

describe('dashboard overview (spec 2 "Admin dashboard")', () => {
  afterEach(resetBrowser);

  it('shows the counters, then follows the live dashboardCounters pushes (an older one changes nothing)', async () => {
    const { socket } = await onTheOverview();
    await waitFor(() => expect(counter('Online now').textContent).toBe('4'));
    expect(counter('In calls').textContent).toBe('0');
    expect(counter('Active bans').textContent).toBe('5');
    expect(screen.getByText('Live')).toBeDefined();

    // Two users match: the push raises "In calls" without a reload.
    act(() =>
      socket.serverPushes({
        event: 'dashboardCounters',
        payload: { eventId: 'c-1', counters: counters({ searching: 0, inCalls: 1 }), at: '2026-11-26T03:00:05.000Z' },
      }),
    );
    expect(counter('In calls').textContent).toBe('1');
    expect(counter('Searching').textContent).toBe('0');

    act(() =>
      socket.serverPushes({
        event: 'dashboardCounters',
        payload: { eventId: 'c-0', counters: counters({ inCalls: 7 }), at: '2026-11-26T03:00:01.000Z' },
      }),
    );
    expect(counter('In calls').textContent).toBe('1');
    // The charts come in their own chunk, each saying when it has nothing to show.
    expect(await screen.findByText('No matches in the last 24 hours.')).toBeDefined();
    expect(screen.getByText('No SFU node has reported lately.')).toBeDefined();
  });

  it('says so when the overview cannot be loaded, and loads it on Try again', async () => {
    const { server } = await onTheOverview(500);
    expect(await screen.findByText('The overview could not be loaded.')).toBeDefined();
    server.on('GET', OVERVIEW_PATH, reply(200, anOverview({ onlineNow: 9 }, '2026-11-26T03:10:00.000Z')));
    await userEvent.click(screen.getByRole('button', { name: 'Try again' }));
    await waitFor(() => expect(counter('Online now').textContent).toBe('9'));
    expect(screen.queryByText('The overview could not be loaded.')).toBeNull();
  });
});

describe('the overview charts (spec 2 "Admin dashboard")', () => {
  afterEach(() => {
    vi.useRealTimers();
    vi.restoreAllMocks();
    resetBrowser();
  });

  const chart = (title: string) => screen.getByRole('heading', { level: 2, name: title }).closest('figure')!;

  it('shows a median measured in only one hour as a point, not empty axes', async () => {
    // jsdom lays nothing out: the charts get the size a desktop gives them.
    vi.spyOn(HTMLElement.prototype, 'getBoundingClientRect').mockReturnValue(
      DOMRect.fromRect({ width: 480, height: 240 }),
    );
    const overview = anOverview();
    overview.charts.hours[20] = { ...overview.charts.hours[20]!, matches: 1, medianWaitMs: 1498, medianCallMs: 95_000 };
    await onTheOverview(200, overview);
    await screen.findByRole('heading', { level: 2, name: 'Median wait to match' });

    await waitFor(() => expect(chart('Median wait to match').querySelectorAll('.recharts-dot')).toHaveLength(1));
    expect(chart('Median call length').querySelectorAll('.recharts-dot')).toHaveLength(1);
  });

  it('follows the live counters: a change reloads the charts, at most every 10 s; Refresh still does at once', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const { socket, server } = await onTheOverview();
    expect(await screen.findByText('No reports or bans in the last 14 days.')).toBeDefined();
    // The review bell may ask too: count from here.
    const before = server.requestsTo('GET', OVERVIEW_PATH).length;
    const loads = () => server.requestsTo('GET', OVERVIEW_PATH).length - before;

    const withAReport = anOverview({ reportsToday: 2 }, '2026-11-26T03:00:06.000Z');
    withAReport.charts.days[13] = { ...withAReport.charts.days[13]!, reports: 1 };
    server.on('GET', OVERVIEW_PATH, reply(200, withAReport));
    act(() =>
      socket.serverPushes({
        event: 'dashboardCounters',
        payload: { eventId: 'c-9', counters: counters({ reportsToday: 2 }), at: '2026-11-26T03:00:05.000Z' },
      }),
    );
    expect(counter('Reports today').textContent).toBe('2');
    // The overview was loaded a moment ago: the charts wait for the rest of the 10 s.
    await act(() => vi.advanceTimersByTimeAsync(5_000));
    expect(loads()).toBe(0);
    await act(() => vi.advanceTimersByTimeAsync(5_500));
    await waitFor(() => expect(loads()).toBe(1));
    await waitFor(() => expect(screen.queryByText('No reports or bans in the last 14 days.')).toBeNull());
    // Loaded in place: the counters never left the page.
    expect(counter('Reports today').textContent).toBe('2');

    // Nothing changed since: no more loads.
    await act(() => vi.advanceTimersByTimeAsync(30_000));
    expect(loads()).toBe(1);
    await userEvent.click(screen.getByRole('button', { name: 'Refresh' }));
    await waitFor(() => expect(loads()).toBe(2));
  });
});

describe("the dashboard header's review bell", () => {
  afterEach(resetBrowser);

  it('counts open reports and pending appeals live, and leads to each queue', async () => {
    const { socket, router } = await onTheOverview();
    const bell = await screen.findByRole('button', { name: '4 waiting for review' });
    expect(within(bell).getByText('4')).toBeDefined();

    act(() =>
      socket.serverPushes({
        event: 'dashboardCounters',
        payload: {
          eventId: 'c-2',
          counters: counters({ openReports: 5, openAppeals: 2 }),
          at: '2026-11-26T03:01:00.000Z',
        },
      }),
    );
    const updated = screen.getByRole('button', { name: '7 waiting for review' });

    await userEvent.click(updated);
    const reports = await screen.findByRole('menuitem', { name: /Open reports\s*5/ });
    expect(screen.getByRole('menuitem', { name: /Pending appeals\s*2/ })).toBeDefined();
    await userEvent.click(reports);
    await waitFor(() => expect(router.state.location.pathname).toBe('/dashboard/reports'));

    await userEvent.click(screen.getByRole('button', { name: '7 waiting for review' }));
    await userEvent.click(await screen.findByRole('menuitem', { name: /Pending appeals/ }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/dashboard/appeals'));
  });

  it('lists who is online now for an admin, live: first name linking to their page, device, and away or online', async () => {
    const { socket, router } = await onTheOverview();
    expect(await screen.findByText('Waiting for the live list…')).toBeDefined();
    const grace = { userId: 'u-grace', firstName: 'Grace', device: 'mobile', status: 'online' } as const;
    const hal = { userId: 'u-hal', firstName: 'Hal', device: 'desktop', status: 'online' } as const;
    act(() =>
      socket.serverPushes({ event: 'onlineUsers', payload: { eventId: 'o-1', users: [grace, hal], total: 2 } }),
    );
    const list = screen.getByRole('list', { name: 'People online now' });
    const rows = within(list).getAllByRole('listitem');
    expect(rows.map((row) => row.textContent)).toEqual(['GracePhoneOnline', 'HalDesktopOnline']);

    // Grace hides her page: away, without a reload.
    act(() =>
      socket.serverPushes({
        event: 'onlineUsers',
        payload: { eventId: 'o-2', users: [{ ...grace, status: 'away' }, hal], total: 2 },
      }),
    );
    expect(within(list).getByTestId('online-u-grace').textContent).toBe('GracePhoneAway');
    // Thousands online: the server sends the first 200 and counts the rest.
    const crowd = Array.from({ length: 200 }, (_, i) => ({ ...hal, userId: `u-${i}`, firstName: `P${i}` }));
    act(() => socket.serverPushes({ event: 'onlineUsers', payload: { eventId: 'o-3', users: crowd, total: 1_234 } }));
    expect(within(screen.getByRole('list', { name: 'People online now' })).getAllByRole('listitem')).toHaveLength(200);
    expect(screen.getByText('and 1,034 more')).toBeDefined();
    expect(screen.getByRole('heading', { name: /^Online now/ }).textContent).toBe('Online now1,234');
    act(() =>
      socket.serverPushes({
        event: 'onlineUsers',
        payload: { eventId: 'o-4', users: [{ ...grace, status: 'away' }, hal], total: 2 },
      }),
    );
    await userEvent.click(
      within(screen.getByRole('list', { name: 'People online now' })).getByRole('link', { name: 'Grace' }),
    );
    await waitFor(() => expect(router.state.location.pathname).toBe('/dashboard/user-management/u-grace/view-details'));
  });

  it('shows a moderator no list of who is online (the server sends it to admins only)', async () => {
    serveFakeApi()
      .on('GET', AUTH_PATHS.userInfo, reply(200, aUser({ role: 'moderator', twoFactorEnabled: true })))
      .on('GET', OVERVIEW_PATH, reply(200, anOverview()));
    rememberSessionInThisBrowser();
    renderApp('/dashboard');
    await screen.findByRole('heading', { level: 1, name: 'Overview' });
    await waitFor(() => expect(counter('Online now').textContent).toBe('4'));
    expect(screen.queryByRole('heading', { name: /^Online now/ })).toBeNull();
  });

  it('shows no badge when nothing waits', async () => {
    await onTheOverview(200, anOverview({ openReports: 0, openAppeals: 0 }));
    const bell = await screen.findByRole('button', { name: 'Nothing to review' });
    expect(bell.querySelector('.review-bell__badge')).toBeNull();
  });
});
