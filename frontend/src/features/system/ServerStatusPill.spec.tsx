import { HEALTH_MESSAGES, type PingRequest } from '@serendip/proto';
import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { FakeSystemSocket } from '../../test-support/fake-system-socket';
import { answerWith, renderApp } from '../../test-support/render-app';

describe('server status pill', () => {
  it('shows the socket round trip once the server answers a ping', async () => {
    vi.stubGlobal('fetch', answerWith(200, { message: HEALTH_MESSAGES.up }));
    let clock = 1_000;
    const socket = new FakeSystemSocket(async ({ sentAt }: PingRequest) => {
      clock += 42; // the answer takes 42 ms to come back
      return { sentAt, serverTime: 999_999 };
    });

    renderApp('/', { socket, services: { now: () => clock } });
    expect(await screen.findByText('Server Operational')).toBeDefined();
    expect(screen.queryByText(/\d+ ms$/)).toBeNull();

    socket.serverConnects();

    expect(await screen.findByText('42 ms')).toBeDefined();
    expect(socket.pings).toEqual([{ sentAt: 1_000 }]);
  });

  it('shows no round trip when the server refuses the ping', async () => {
    vi.stubGlobal('fetch', answerWith(200, { message: HEALTH_MESSAGES.up }));
    const socket = new FakeSystemSocket(async () => ({ error: { reason: 'ping needs { sentAt: number }' } }));

    const { store } = renderApp('/', { socket });
    await screen.findByText('Server Operational');
    socket.serverConnects();

    await waitFor(() => expect(socket.pings).toHaveLength(1));
    await waitFor(() => expect(store.getState().system.socket.status).toBe('connected'));
    expect(screen.queryByText(/\d+ ms$/)).toBeNull();
  });

  it('checks the server again when the socket drops, and shows what it finds', async () => {
    const fetchStub = vi.fn(answerWith(200, { message: HEALTH_MESSAGES.up }));
    vi.stubGlobal('fetch', fetchStub);
    const socket = new FakeSystemSocket(async ({ sentAt }) => ({ sentAt, serverTime: sentAt }));

    renderApp('/', { socket, services: { now: () => 5_000 } });
    await screen.findByText('Server Operational');
    socket.serverConnects();
    expect(await screen.findByText('0 ms')).toBeDefined();

    fetchStub.mockImplementation(answerWith(503, { message: HEALTH_MESSAGES.down, reason: 'database unreachable' }));
    socket.serverDrops();

    expect(await screen.findByText('Server Down')).toBeDefined();
    expect(screen.queryByText('0 ms')).toBeNull();
    expect(fetchStub).toHaveBeenCalledTimes(2);
  });
});
