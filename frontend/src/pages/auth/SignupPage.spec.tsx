import { AUTH_PATHS } from '@serendip/proto';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { aNewUser, inTurn, reply, resetBrowser, serveFakeApi } from '../../features/auth/auth-test-support';
import { renderApp } from '../../test-support/render-app';
import { loadCommonPasswords } from './common-passwords';

async function signUp(emailAddress: string, password: string, confirm = password) {
  await userEvent.type(await screen.findByLabelText('E-mail address'), emailAddress);
  await userEvent.type(screen.getByLabelText('Password'), password);
  await userEvent.type(screen.getByLabelText('Confirm password'), confirm);
  await userEvent.click(screen.getByRole('button', { name: 'Create account' }));
}

/** The error text tied to a field through aria-describedby. */
function describedErrors(label: string): string {
  const input = screen.getByLabelText(label);
  return (input.getAttribute('aria-describedby') ?? '')
    .split(' ')
    .map((id) => document.getElementById(id))
    .filter((element) => element?.classList.contains('field__errors'))
    .map((element) => element?.textContent)
    .join(' ');
}

describe('sign-up page', () => {
  afterEach(resetBrowser);

  it('shows the password rules', async () => {
    serveFakeApi();
    renderApp('/auth/signup');

    const rules = await screen.findByRole('list', { name: 'Password rules' });
    expect(rules.textContent).toContain('8 to 128 characters');
    expect(rules.textContent).toContain('Not a common password');
  });

  it('ticks "Not a common password" for a password off the common list, not for one on it', async () => {
    serveFakeApi();
    renderApp('/auth/signup');
    const rule = async (name: string) =>
      within(await screen.findByRole('list', { name: 'Password rules' }))
        .getByText(name)
        .closest('li');
    const ticked = async (name: string) => (await rule(name))?.classList.contains('password-rules__rule--met');

    expect(await ticked('Not a common password')).toBe(false);
    await userEvent.type(await screen.findByLabelText('Password'), 'password1');
    // Once the list is there (it loads on its own), the page knows this one is on it.
    await loadCommonPasswords();
    await waitFor(() => expect(ticked('8 to 128 characters')).resolves.toBe(true));
    expect(await ticked('Not a common password')).toBe(false);

    await userEvent.clear(screen.getByLabelText('Password'));
    await userEvent.type(screen.getByLabelText('Password'), 'violet-harbour-41');
    await waitFor(() => expect(ticked('Not a common password')).resolves.toBe(true), { timeout: 5000 });
    expect((await rule('Not a common password'))?.textContent).toContain('✓');
  });

  it("shows the server's field errors under their fields", async () => {
    serveFakeApi().on(
      'POST',
      AUTH_PATHS.signup,
      reply(400, {
        statusCode: 400,
        message: [
          'emailAddress must be an e-mail address',
          'This password is one of the most common ones; choose another',
        ],
        error: 'Bad Request',
      }),
    );
    renderApp('/auth/signup');

    await signUp('ada@example.com', 'password1');

    expect(await screen.findByText('E-mail address must be an e-mail address.')).toBeDefined();
    expect(describedErrors('E-mail address')).toBe('E-mail address must be an e-mail address.');
    expect(describedErrors('Password')).toBe('This password is one of the most common ones; choose another.');
    expect(screen.getByLabelText('E-mail address').getAttribute('aria-invalid')).toBe('true');
    expect(document.activeElement).toBe(screen.getByLabelText('E-mail address'));
  });

  it("places the service's field answers (password policy, an address its stricter check refuses) under their fields", async () => {
    serveFakeApi().on(
      'POST',
      AUTH_PATHS.signup,
      inTurn(
        reply(400, {
          statusCode: 400,
          message: ['password: This password is one of the most common ones; choose another'],
          error: 'Bad Request',
        }),
        reply(400, {
          statusCode: 400,
          message: ['emailAddress must be an e-mail address'],
          error: 'Bad Request',
        }),
      ),
    );
    renderApp('/auth/signup');

    await signUp('ada@example.com', 'password1');
    expect(await screen.findByText('This password is one of the most common ones; choose another.')).toBeDefined();
    expect(describedErrors('Password')).toBe('This password is one of the most common ones; choose another.');

    await userEvent.click(screen.getByRole('button', { name: 'Create account' }));
    expect(await screen.findByText('E-mail address must be an e-mail address.')).toBeDefined();
    expect(describedErrors('E-mail address')).toBe('E-mail address must be an e-mail address.');
    expect(describedErrors('Password')).toBe('');
  });

  it('puts a server message that names no field above the button', async () => {
    serveFakeApi().on('POST', AUTH_PATHS.signup, reply(400, { statusCode: 400, message: 'Sign-ups are paused' }));
    renderApp('/auth/signup');

    await signUp('ada@example.com', 'a long enough one');

    expect((await screen.findByRole('alert')).textContent).toBe('Sign-ups are paused.');
  });

  it('on 201 goes on to the profile step and says a verification e-mail was sent', async () => {
    const server = serveFakeApi().on(
      'POST',
      AUTH_PATHS.signup,
      reply(201, aNewUser({ emailAddress: 'new@example.com' })),
    );
    const { router } = renderApp('/auth/signup');

    await signUp('  new@example.com ', 'a long enough one');

    expect(await screen.findByRole('heading', { name: 'Tell us about you' })).toBeDefined();
    expect(router.state.location.pathname).toBe('/auth/signup/cs');
    expect(await screen.findByText('Account created. We sent a verification e-mail to new@example.com.')).toBeDefined();
    // The confirmation never leaves the page: the server forbids unknown fields.
    expect(server.requestsTo('POST', AUTH_PATHS.signup)[0]?.body).toEqual({
      emailAddress: 'new@example.com',
      password: 'a long enough one',
    });
  });

  it('refuses a short password and a confirmation that does not match before sending', async () => {
    const server = serveFakeApi();
    renderApp('/auth/signup');

    await signUp('ada@example.com', 'short', 'shorter');

    expect(describedErrors('Password')).toBe('Use at least 8 characters.');
    expect(describedErrors('Confirm password')).toBe('The two passwords do not match.');
    expect(server.requestsTo('POST', AUTH_PATHS.signup)).toHaveLength(0);
  });
});
