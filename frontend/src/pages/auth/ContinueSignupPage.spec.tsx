import { AUTH_PATHS } from '@serendip/proto';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { calendarDate } from '../../features/auth/age';
import {
  aNewUser,
  aUser,
  rememberSessionInThisBrowser,
  reply,
  resetBrowser,
  serveFakeApi,
} from '../../features/auth/auth-test-support';
import { renderApp } from '../../test-support/render-app';

function openAsNewUser() {
  const server = serveFakeApi().on('GET', AUTH_PATHS.userInfo, reply(200, aNewUser()));
  rememberSessionInThisBrowser();
  const view = renderApp('/auth/signup/cs');
  return { ...view, server };
}

async function fillProfile(birthDate: string) {
  await userEvent.type(await screen.findByLabelText('First name'), 'Ada');
  await userEvent.type(screen.getByLabelText('Last name'), 'Lovelace');
  await userEvent.type(screen.getByLabelText('Username'), 'ada');
  await userEvent.click(screen.getByLabelText('Female'));
  // jsdom has no date picker to type into; a change event is what the browser sends once a date is picked.
  fireEvent.change(screen.getByLabelText('Birth date'), { target: { value: birthDate } });
  await userEvent.click(screen.getByRole('button', { name: 'Finish and start' }));
}

describe('continue sign-up page', () => {
  afterEach(resetBrowser);

  it('refuses an under-18 birth date on the client, with the message, and sends nothing', async () => {
    const { server } = openAsNewUser();
    const seventeenYearsAgo = calendarDate(new Date(), 17);

    await fillProfile(seventeenYearsAgo);

    expect(await screen.findByText('You must be 18 or older to use Serendip.')).toBeDefined();
    expect(screen.getByLabelText('Birth date').getAttribute('aria-invalid')).toBe('true');
    expect(server.requestsTo('POST', AUTH_PATHS.completeSignup)).toHaveLength(0);
  });

  it('says a verification e-mail is on its way when the address is not verified yet', async () => {
    openAsNewUser();

    expect((await screen.findByText(/We sent a verification link to/)).textContent).toContain('ada@example.com');
  });

  it('stores the returned user and goes home on 200, greeting a newcomer (not "Welcome back")', async () => {
    const { server, router, store } = openAsNewUser();
    server.on('POST', AUTH_PATHS.completeSignup, reply(200, aUser()));

    await fillProfile('1990-12-10');

    expect(await screen.findByText('Server Operational')).toBeDefined();
    expect(router.state.location.pathname).toBe('/');
    expect(await screen.findByRole('heading', { level: 1, name: 'Welcome, Ada' })).toBeDefined();
    expect(store.getState().session.user?.isFinishedSteps).toBe(true);
    expect(server.requestsTo('POST', AUTH_PATHS.completeSignup)[0]?.body).toEqual({
      firstName: 'Ada',
      lastName: 'Lovelace',
      username: 'ada',
      gender: 'female',
      birthDate: '1990-12-10',
    });
  });

  it('goes on to the page the user was on their way to when the steps came first', async () => {
    const server = serveFakeApi().on('GET', AUTH_PATHS.userInfo, reply(200, aNewUser()));
    rememberSessionInThisBrowser();
    const { router } = renderApp('/security-center');
    await screen.findByLabelText('First name');
    expect(router.state.location.pathname).toBe('/auth/signup/cs');
    server
      .on('GET', AUTH_PATHS.userInfo, reply(200, aUser()))
      .on('POST', AUTH_PATHS.completeSignup, reply(200, aUser()));

    await fillProfile('1990-12-10');

    await waitFor(() => expect(router.state.location.pathname).toBe('/security-center'));
  });

  it("puts the server's refusals under the fields, the under-age one under the birth date", async () => {
    const { server } = openAsNewUser();
    server.on(
      'POST',
      AUTH_PATHS.completeSignup,
      reply(400, {
        statusCode: 400,
        message: [
          'username must be 3 to 30 letters, digits, dots or underscores',
          'you must be 18 or older to use Serendip',
        ],
      }),
    );

    await fillProfile('1990-12-10');

    expect(await screen.findByText('Username must be 3 to 30 letters, digits, dots or underscores.')).toBeDefined();
    expect(screen.getByText('You must be 18 or older to use Serendip.')).toBeDefined();
    expect(screen.getByLabelText('Birth date').getAttribute('aria-invalid')).toBe('true');
  });

  it('asks for every field', async () => {
    const { server } = openAsNewUser();

    await userEvent.click(await screen.findByRole('button', { name: 'Finish and start' }));

    for (const text of [
      'Enter your first name.',
      'Enter your last name.',
      'Choose a username.',
      'Choose Male or Female.',
      'Enter your birth date.',
    ]) {
      expect(screen.getByText(text)).toBeDefined();
    }
    expect(server.requestsTo('POST', AUTH_PATHS.completeSignup)).toHaveLength(0);
  });
});
