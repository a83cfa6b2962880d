import { AUTH_PATHS } from '@serendip/proto';
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { reply, type Responder, resetBrowser, serveFakeApi } from '../../features/auth/auth-test-support';
import { renderApp } from '../../test-support/render-app';

async function chooseNewPassword(answer: Responder, password = 'a brand new secret') {
  const server = serveFakeApi().on('POST', AUTH_PATHS.resetPassword, answer);
  renderApp('/reset-password/token-from-the-mail');
  await userEvent.type(await screen.findByLabelText('New password'), password);
  await userEvent.type(screen.getByLabelText('Confirm new password'), password);
  await userEvent.click(screen.getByRole('button', { name: 'Change password' }));
  return server;
}

describe('new-password page', () => {
  afterEach(resetBrowser);

  it('sends the token with the new password and, on 200, says so and links to login', async () => {
    const server = await chooseNewPassword(reply(200, { message: 'Password changed' }));

    expect(await screen.findByText('Your password has been changed.')).toBeDefined();
    expect(screen.getByRole('link', { name: 'Log in' }).getAttribute('href')).toBe('/auth/login');
    expect(server.requestsTo('POST', AUTH_PATHS.resetPassword)[0]?.body).toEqual({
      token: 'token-from-the-mail',
      newPassword: 'a brand new secret',
    });
  });

  it('says the link expired or was used when the server refuses the token', async () => {
    await chooseNewPassword(reply(400, { statusCode: 400, message: 'Bad Request' }));

    expect((await screen.findByRole('alert')).textContent).toBe('This reset link has expired or was already used.');
    expect(screen.getByRole('link', { name: 'Ask for a new one' }).getAttribute('href')).toBe('/auth/password-reset');
  });

  it("shows the server's own words when it refuses the token", async () => {
    await chooseNewPassword(
      reply(400, {
        statusCode: 400,
        message: ['token: this link has expired or was already used'],
        error: 'Bad Request',
      }),
    );

    expect((await screen.findByRole('alert')).textContent).toBe('This link has expired or was already used.');
  });

  it("shows the password policy's refusal under the new password", async () => {
    await chooseNewPassword(
      reply(400, {
        statusCode: 400,
        message: ['newPassword: This password is one of the most common ones; choose another'],
      }),
      'password123',
    );

    const input = screen.getByLabelText('New password');
    expect(await screen.findByText('This password is one of the most common ones; choose another.')).toBeDefined();
    expect(input.getAttribute('aria-invalid')).toBe('true');
  });
});
