import { AUTH_PATHS } from '@serendip/proto';
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { offline, reply, type Responder, resetBrowser, serveFakeApi } from '../../features/auth/auth-test-support';
import { renderApp } from '../../test-support/render-app';

async function askForReset(answer: Responder) {
  const server = serveFakeApi().on('POST', AUTH_PATHS.passwordReset, answer);
  renderApp('/auth/password-reset');
  await userEvent.type(await screen.findByLabelText('E-mail address'), 'ada@example.com');
  await userEvent.click(screen.getByRole('button', { name: 'Send reset link' }));
  return server;
}

const NEUTRAL = 'If an account exists for that address, we sent a link to reset its password.';

describe('password reset request page', () => {
  afterEach(resetBrowser);

  const answers: Array<[string, Responder]> = [
    ['202', reply(202)],
    ['404', reply(404, { statusCode: 404, message: 'No such account' })],
    ['429', reply(429, { statusCode: 429, message: 'Too Many Requests' }, { 'Retry-After': '3600' })],
    ['500', reply(500, { statusCode: 500, message: 'Internal server error' })],
  ];
  for (const [status, answer] of answers) {
    it(`says the same neutral thing when the server answers ${status}`, async () => {
      const server = await askForReset(answer);

      expect(await screen.findByText(NEUTRAL)).toBeDefined();
      expect(server.requestsTo('POST', AUTH_PATHS.passwordReset)[0]?.body).toEqual({ emailAddress: 'ada@example.com' });
    });
  }

  it('says so when there is no answer at all, so the user can try again', async () => {
    await askForReset(offline());

    expect((await screen.findByRole('alert')).textContent).toBe(
      "We couldn't reach Serendip. Check your connection and try again.",
    );
    expect(screen.queryByText(NEUTRAL)).toBeNull();
  });
});
