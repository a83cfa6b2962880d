import { HEALTH_MESSAGES } from '@serendip/proto';
import { act, screen } from '@testing-library/react';
import { toast } from 'sonner';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderApp } from '../../test-support/render-app';
import { notify } from './notify';

describe('toasts in the app shell', () => {
  afterEach(() => {
    act(() => {
      toast.dismiss();
    });
  });

  it('keeps a toast raised during boot on screen when the loading overlay goes', async () => {
    let answerHealth: (response: Response) => void = () => {};
    vi.stubGlobal('fetch', () => new Promise<Response>((resolve) => (answerHealth = resolve)));
    renderApp('/');
    expect(screen.getByRole('status', { name: 'Loading Serendip' })).toBeDefined();

    act(() => notify.error('Session Expired, Please Log In.'));
    expect(await screen.findByText('Session Expired, Please Log In.')).toBeDefined();

    answerHealth(new Response(JSON.stringify({ message: HEALTH_MESSAGES.up }), { status: 200 }));

    expect(await screen.findByText('Server Operational')).toBeDefined();
    expect(screen.queryByRole('status', { name: 'Loading Serendip' })).toBeNull();
    expect(screen.getByText('Session Expired, Please Log In.')).toBeDefined();
  });
});
