import { HEALTH_MESSAGES } from '@serendip/proto';
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { answerWith, renderApp } from '../../test-support/render-app';

describe('404 page', () => {
  beforeEach(() => {
    vi.stubGlobal('fetch', answerWith(200, { message: HEALTH_MESSAGES.up }));
  });

  it('tells the visitor the page does not exist and links back home', async () => {
    renderApp('/no-such-page');

    expect(
      await screen.findByText("Oops! The page you're looking for doesn't exist or may have been moved."),
    ).toBeDefined();
    const back = screen.getByRole('link', { name: 'Return Back' });
    expect(back.getAttribute('href')).toBe('/');
    expect(document.title).toBe('Page not found · Serendip');
  });

  it('catches nested unknown paths too', async () => {
    renderApp('/auth/nowhere/at/all');

    expect(await screen.findByRole('link', { name: 'Return Back' })).toBeDefined();
  });

  it('takes the visitor home with Return Back', async () => {
    const user = userEvent.setup();
    const { router } = renderApp('/no-such-page');

    await user.click(await screen.findByRole('link', { name: 'Return Back' }));

    expect(await screen.findByText(/random one-to-one video chat/i)).toBeDefined();
    expect(router.state.location.pathname).toBe('/');
    expect(document.title).toBe('Serendip');
  });
});
