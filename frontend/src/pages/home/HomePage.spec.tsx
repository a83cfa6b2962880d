import { HEALTH_MESSAGES } from '@serendip/proto';
import { screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { answerWith, renderApp } from '../../test-support/render-app';

describe('home page', () => {
  it('introduces Serendip as random one-to-one video chat for adults', async () => {
    vi.stubGlobal('fetch', answerWith(200, { message: HEALTH_MESSAGES.up }));

    renderApp('/');

    expect(await screen.findByRole('heading', { level: 1 })).toBeDefined();
    expect(screen.getByRole('link', { name: 'Serendip home' }).getAttribute('href')).toBe('/');
    expect(screen.getByText(/random one-to-one video chat with strangers, with enhanced privacy/i)).toBeDefined();
    expect(screen.getByText(/18 or older/)).toBeDefined();
    expect(document.title).toBe('Serendip');
  });
});
