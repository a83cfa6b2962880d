import { AUTH_PATHS } from '@serendip/proto';
import { act, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { aUser, rememberSessionInThisBrowser, reply, resetBrowser, serveFakeApi } from '../auth/auth-test-support';
import { renderApp } from '../../test-support/render-app';
import { onlineCountText } from './online-count';

describe('how many people are online (spec 4 "Presence": users see the number)', () => {
  afterEach(resetBrowser);

  it('reads "1 person online", "1,234 people online"', () => {
    expect(onlineCountText(1)).toBe('1 person online');
    expect(onlineCountText(0)).toBe('0 people online');
    expect(onlineCountText(1234)).toBe('1,234 people online');
    expect(onlineCountText(1_000_000)).toBe('1,000,000 people online');
  });

  it('shows the live count on home, follows each push, and hides it while the socket is down', async () => {
    serveFakeApi().on('GET', AUTH_PATHS.userInfo, reply(200, aUser()));
    rememberSessionInThisBrowser();
    const { socket } = renderApp('/');
    await screen.findByRole('heading', { level: 1, name: 'Welcome back, Ada' });
    // Nothing said yet: no number made up.
    expect(screen.queryByTestId('online-count')).toBeNull();

    act(() => socket.serverConnects());
    // Counted before this page was: not true of a signed-in viewer, so not shown.
    act(() => socket.serverPushes({ event: 'onlineCount', payload: { eventId: 'n-0', count: 0 } }));
    expect(screen.queryByTestId('online-count')).toBeNull();
    act(() => socket.serverPushes({ event: 'onlineCount', payload: { eventId: 'n-1', count: 1 } }));
    expect(screen.getByTestId('online-count').textContent).toBe('1 person online');
    act(() => socket.serverPushes({ event: 'onlineCount', payload: { eventId: 'n-2', count: 1234 } }));
    expect(screen.getByTestId('online-count').textContent).toBe('1,234 people online');

    act(() => socket.serverDrops());
    expect(screen.queryByTestId('online-count')).toBeNull();
  });
});
