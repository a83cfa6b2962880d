import { AUTH_PATHS } from '@serendip/proto';
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import {
  aNewUser,
  aUser,
  hasSessionHint,
  reply,
  resetBrowser,
  serveFakeApi,
} from '../../features/auth/auth-test-support';
import { renderApp } from '../../test-support/render-app';

async function fillCredentials(emailAddress = 'ada@example.com', password = 'correct horse battery') {
  await userEvent.type(await screen.findByLabelText('E-mail address'), emailAddress);
  await userEvent.type(screen.getByLabelText('Password'), password);
  await userEvent.click(screen.getByRole('button', { name: 'Log in' }));
}

describe('login page', () => {
  afterEach(resetBrowser);

  it('asks for the e-mailed code when two-factor is on, then goes to the redirect target', async () => {
    const server = serveFakeApi()
      .on('POST', AUTH_PATHS.login, reply(200, { twoFactorRequired: true, challengeId: 'challenge-1' }))
      .on('POST', AUTH_PATHS.loginVerify, reply(200, aUser({ twoFactorEnabled: true })));
    const { router, store } = renderApp(`/auth/login?redirect=${encodeURIComponent('/video-match')}`);

    await fillCredentials();

    expect(await screen.findByRole('heading', { name: 'Check your e-mail' })).toBeDefined();
    expect(screen.getByText('ada@example.com')).toBeDefined();
    expect(store.getState().session.user).toBeNull();
    await userEvent.type(screen.getByLabelText('Login code'), '123456');
    await userEvent.click(screen.getByRole('button', { name: 'Verify and log in' }));

    expect(await screen.findByRole('heading', { name: 'Select Gender' })).toBeDefined();
    expect(router.state.location.pathname).toBe('/video-match');
    expect(await screen.findByRole('button', { name: 'Account menu for Ada' })).toBeDefined();
    expect(server.requestsTo('POST', AUTH_PATHS.login)[0]?.body).toEqual({
      emailAddress: 'ada@example.com',
      password: 'correct horse battery',
    });
    expect(server.requestsTo('POST', AUTH_PATHS.loginVerify)[0]?.body).toEqual({
      challengeId: 'challenge-1',
      code: '123456',
    });
    expect(hasSessionHint()).toBe(true);
  });

  it('signs in straight away without two-factor and goes home when there is no redirect', async () => {
    serveFakeApi().on('POST', AUTH_PATHS.login, reply(200, aUser()));
    const { router } = renderApp('/auth/login');

    await fillCredentials();

    expect(await screen.findByText('Server Operational')).toBeDefined();
    expect(router.state.location.pathname).toBe('/');
    expect(await screen.findByRole('button', { name: /^Account menu for / })).toBeDefined();
  });

  for (const offSite of ['//evil.example', 'https://evil.example', '/\\evil.example', 'javascript:alert(1)']) {
    it(`goes to / instead of the off-site redirect ${offSite}`, async () => {
      serveFakeApi().on('POST', AUTH_PATHS.login, reply(200, aUser()));
      const { router } = renderApp(`/auth/login?redirect=${encodeURIComponent(offSite)}`);

      await fillCredentials();

      expect(await screen.findByText('Server Operational')).toBeDefined();
      expect(router.state.location.pathname).toBe('/');
      expect(router.state.location.search).toBe('');
    });
  }

  it('sends a user who still owes the profile step to /auth/signup/cs', async () => {
    serveFakeApi().on('POST', AUTH_PATHS.login, reply(200, aNewUser()));
    const { router } = renderApp('/auth/login?redirect=%2Fvideo-match');

    await fillCredentials();

    expect(await screen.findByRole('heading', { name: 'Tell us about you' })).toBeDefined();
    expect(router.state.location.pathname).toBe('/auth/signup/cs');
    // The page it came for waits until the profile step is done.
    expect(router.state.location.search).toBe('?redirect=%2Fvideo-match');
  });

  it('says the credentials are wrong without naming which', async () => {
    serveFakeApi().on('POST', AUTH_PATHS.login, reply(401, { statusCode: 401, message: 'Unauthorized' }));
    renderApp('/auth/login');

    await fillCredentials('ada@example.com', 'wrong password');

    expect((await screen.findByRole('alert')).textContent).toBe('The e-mail address or password is incorrect.');
    expect(screen.getByRole('button', { name: 'Log in' })).toBeDefined();
  });

  it("shows the server's own words for wrong credentials", async () => {
    serveFakeApi().on(
      'POST',
      AUTH_PATHS.login,
      reply(401, { statusCode: 401, message: 'Wrong e-mail address or password', error: 'Unauthorized' }),
    );
    renderApp('/auth/login');

    await fillCredentials('ada@example.com', 'wrong password');

    expect((await screen.findByRole('alert')).textContent).toBe('Wrong e-mail address or password.');
  });

  it('tells how long to wait when the server limits attempts', async () => {
    serveFakeApi().on(
      'POST',
      AUTH_PATHS.login,
      reply(429, { statusCode: 429, message: 'Too Many Requests' }, { 'Retry-After': '600' }),
    );
    renderApp('/auth/login');

    await fillCredentials();

    expect((await screen.findByRole('alert')).textContent).toBe('Too many attempts. Try again in 10 minutes.');
  });

  it('checks the fields before sending anything', async () => {
    const server = serveFakeApi();
    renderApp('/auth/login');

    await userEvent.type(await screen.findByLabelText('E-mail address'), 'not-an-address');
    await userEvent.click(screen.getByRole('button', { name: 'Log in' }));

    const email = screen.getByLabelText('E-mail address');
    expect(email.getAttribute('aria-invalid')).toBe('true');
    expect(document.activeElement).toBe(email);
    expect(screen.getByText('Enter a valid e-mail address, like name@example.com.')).toBeDefined();
    expect(screen.getByText('Enter your password.')).toBeDefined();
    expect(server.requestsTo('POST', AUTH_PATHS.login)).toHaveLength(0);
  });

  it('shows the server refusing the code under the code field', async () => {
    serveFakeApi()
      .on('POST', AUTH_PATHS.login, reply(200, { twoFactorRequired: true, challengeId: 'challenge-1' }))
      .on(
        'POST',
        AUTH_PATHS.loginVerify,
        reply(400, { statusCode: 400, message: ['code must be the 6 digits from the e-mail'] }),
      );
    renderApp('/auth/login');
    await fillCredentials();

    await userEvent.type(await screen.findByLabelText('Login code'), '12345');
    await userEvent.click(screen.getByRole('button', { name: 'Verify and log in' }));
    expect(screen.getByText('Enter the 6-digit code from the e-mail.')).toBeDefined();

    await userEvent.type(screen.getByLabelText('Login code'), '6');
    await userEvent.click(screen.getByRole('button', { name: 'Verify and log in' }));
    expect(await screen.findByText('Login code must be the 6 digits from the e-mail.')).toBeDefined();
  });

  it('disables the button with a spinner while the login is on its way', async () => {
    const server = serveFakeApi();
    const login = server.hold('POST', AUTH_PATHS.login);
    renderApp('/auth/login');

    await fillCredentials();

    const busy = await screen.findByRole('button', { name: 'Logging in…' });
    expect((busy as HTMLButtonElement).disabled).toBe(true);
    login.answer(200, aUser());
    expect(await screen.findByText('Server Operational')).toBeDefined();
  });
});
