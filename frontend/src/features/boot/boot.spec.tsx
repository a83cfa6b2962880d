import { HEALTH_MESSAGES } from '@serendip/proto';
import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { answerWith, renderApp } from '../../test-support/render-app';

function deferredFetch() {
  let answer: (response: Response) => void = () => {};
  const fetchStub = vi.fn(() => new Promise<Response>((resolve) => (answer = resolve)));
  return {
    fetchStub,
    answer: (status: number, body: unknown) => answer(new Response(JSON.stringify(body), { status })),
  };
}

describe('boot', () => {
  it('shows INITIALIZING over the app until the first health check has answered', async () => {
    const { fetchStub, answer } = deferredFetch();
    vi.stubGlobal('fetch', fetchStub);

    renderApp('/');

    const overlay = screen.getByRole('status', { name: 'Loading Serendip' });
    expect(overlay.textContent).toContain('INITIALIZING');
    expect(screen.queryByText('Server Operational')).toBeNull();
    expect(fetchStub).toHaveBeenCalledTimes(1);

    answer(200, { message: HEALTH_MESSAGES.up });

    expect(await screen.findByText('Server Operational')).toBeDefined();
    expect(screen.queryByRole('status', { name: 'Loading Serendip' })).toBeNull();
    expect(screen.queryByText('INITIALIZING')).toBeNull();
  });

  it('leaves the overlay and shows Server Down when the server answers 503', async () => {
    vi.stubGlobal('fetch', answerWith(503, { message: HEALTH_MESSAGES.down, reason: 'database unreachable' }));

    renderApp('/');

    expect(await screen.findByText('Server Down')).toBeDefined();
    expect(screen.queryByText('INITIALIZING')).toBeNull();
  });

  it('treats a health answer that breaks the contract as down', async () => {
    vi.stubGlobal('fetch', answerWith(200, { status: 'fine' }));

    renderApp('/');

    expect(await screen.findByText('Server Down')).toBeDefined();
    expect(screen.queryByText('Server Operational')).toBeNull();
  });

  it('leaves the overlay when the server cannot be reached at all', async () => {
    vi.stubGlobal('fetch', vi.fn().mockRejectedValue(new TypeError('Failed to fetch')));

    const { store } = renderApp('/');

    expect(await screen.findByText('Server Down')).toBeDefined();
    await waitFor(() => expect(store.getState().boot.phase).toBe('ready'));
  });
});
