import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { renderApp } from '../../test-support/render-app';
import { resetBrowser, serveFakeApi } from '../auth/auth-test-support';
import { COOKIE_CONSENT_KEY } from './cookie-consent';

describe('cookie banner (spec 2)', () => {
  afterEach(resetBrowser);

  it('asks until the visitor accepts, then never again in this browser', async () => {
    serveFakeApi();
    const first = renderApp('/');

    const banner = await screen.findByRole('region', { name: 'Cookie notice' });
    expect(banner.textContent).toContain('We use cookies to provide a better user experience.');
    expect(screen.getByRole('link', { name: 'Privacy Policy' }).getAttribute('href')).toBe('/legal/privacy-policy');
    await userEvent.click(screen.getByRole('button', { name: 'Accept' }));

    expect(screen.queryByRole('region', { name: 'Cookie notice' })).toBeNull();
    expect(window.localStorage.getItem(COOKIE_CONSENT_KEY)).toBe('true');
    first.unmount();

    renderApp('/');
    await screen.findByRole('link', { name: 'Get Started' });
    expect(screen.queryByRole('region', { name: 'Cookie notice' })).toBeNull();
  });
});
