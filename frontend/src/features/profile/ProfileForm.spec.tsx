import { ACCOUNT_PATHS, AUTH_PATHS, type UserInfo } from '@serendip/proto';
import { act, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderApp } from '../../test-support/render-app';
import { ageOn } from '../auth/age';
import { userUpdated } from '../auth/session.slice';
import {
  aUser,
  inTurn,
  offline,
  rememberSessionInThisBrowser,
  reply,
  resetBrowser,
  serveFakeApi,
} from '../auth/auth-test-support';

async function openProfile(user: UserInfo = aUser()) {
  const server = serveFakeApi().on('GET', AUTH_PATHS.userInfo, reply(200, user));
  rememberSessionInThisBrowser();
  const app = renderApp('/settings/profile');
  await screen.findByRole('heading', { level: 1, name: 'Profile' });
  return { server, ...app };
}

/** The value shown next to a read-only detail's name. */
function detail(term: string): string | null | undefined {
  return screen.getByText(term, { selector: 'dt' }).nextElementSibling?.textContent;
}

const saveButton = () => screen.getByRole('button', { name: 'Save Changes' });

async function replaceText(label: string, text: string) {
  const input = screen.getByLabelText(label);
  await userEvent.clear(input);
  if (text) await userEvent.type(input, text);
}

describe('profile form (spec 2, 4, 5)', () => {
  afterEach(resetBrowser);

  it('shows the editable fields with their placeholders and what cannot be updated', async () => {
    await openProfile(
      aUser({ country: 'Germany', city: null, gender: null, userBirthDate: '1990-12-10', bio: 'Counting things.' }),
    );

    expect(screen.getByPlaceholderText('Enter first name')).toHaveProperty('value', 'Ada');
    expect(screen.getByPlaceholderText('Enter last name')).toHaveProperty('value', 'Lovelace');
    expect(screen.getByPlaceholderText('Enter your bio')).toHaveProperty('value', 'Counting things.');
    expect(screen.getByPlaceholderText('1 (702) 123-4567')).toHaveProperty('value', '');
    expect(screen.getByRole('img', { name: 'Ada Lovelace' })).toBeDefined();

    expect(screen.getByText('The following information cannot be updated.')).toBeDefined();
    expect(detail('Username')).toBe('ada');
    expect(detail('Country')).toBe('Germany');
    expect(detail('City')).toBe('Unknown');
    expect(detail('Gender')).toBe('Unknown');
    expect(detail('Birth date')).toBe('December 10, 1990');
    const age = ageOn([1990, 12, 10], new Date());
    expect(screen.getByText(`Your age is ${age} years old.`)).toBeDefined();
  });

  it('disables the form while saving, then says it saved for 3 s, sending only what changed', async () => {
    const { server, store } = await openProfile();
    const saving = server.hold('POST', ACCOUNT_PATHS.editProfile);
    expect(saveButton()).toHaveProperty('disabled', true);

    await replaceText('First name', 'Augusta');
    await userEvent.click(saveButton());

    await waitFor(() => expect(saving.waitingCount()).toBe(1));
    expect(saveButton()).toHaveProperty('disabled', true);
    expect(saveButton().getAttribute('aria-busy')).toBe('true');
    expect(screen.getByLabelText('First name')).toHaveProperty('disabled', true);
    expect(screen.getByLabelText('Bio')).toHaveProperty('disabled', true);
    expect(screen.getByLabelText('Phone number')).toHaveProperty('disabled', true);
    expect(server.requestsTo('POST', ACCOUNT_PATHS.editProfile)[0]?.body).toEqual({ firstName: 'Augusta' });

    saving.answer(200, aUser({ firstName: 'Augusta' }));

    const saved = await screen.findByRole('button', { name: 'Changes Saved Successfully' });
    expect(saved.className).toContain('profile-form__save--saved');
    expect(store.getState().session.user?.firstName).toBe('Augusta');
    expect(screen.getByLabelText('First name')).toHaveProperty('disabled', false);
    expect(screen.getByLabelText('First name')).toHaveProperty('value', 'Augusta');
    // spec 9: 3000 ms, then idle again.
    await waitFor(() => expect(saveButton()).toBeDefined(), { timeout: 8_000 });
    expect(screen.queryByRole('button', { name: 'Changes Saved Successfully' })).toBeNull();
  });

  it('sends a cleared field as an empty string and leaves untouched fields out', async () => {
    const { server } = await openProfile(aUser({ bio: 'Counting things.' }));
    server.on('POST', ACCOUNT_PATHS.editProfile, reply(200, aUser({ bio: null, lastName: 'King' })));

    await replaceText('Bio', '');
    await replaceText('Last name', ' King ');
    await userEvent.click(saveButton());

    await screen.findByRole('button', { name: 'Changes Saved Successfully' });
    expect(server.requestsTo('POST', ACCOUNT_PATHS.editProfile).map((request) => request.body)).toEqual([
      { bio: '', lastName: 'King' },
    ]);
  });

  it("shows the server's refusals at their fields", async () => {
    const { server } = await openProfile();
    server.on(
      'POST',
      ACCOUNT_PATHS.editProfile,
      reply(400, {
        statusCode: 400,
        message: [
          'phoneNumber: enter a valid phone number with its country code, e.g. +1 702 123 4567',
          'bio must not contain < or >',
        ],
        error: 'Bad Request',
      }),
    );

    await userEvent.type(screen.getByLabelText('Phone number'), '123');
    await userEvent.type(screen.getByLabelText('Bio'), '<b>hi</b>');
    await userEvent.click(saveButton());

    expect(
      await screen.findByText('Enter a valid phone number with its country code, e.g. +1 702 123 4567.'),
    ).toBeDefined();
    expect(screen.getByText('Bio must not contain < or >.')).toBeDefined();
    const phone = screen.getByLabelText('Phone number');
    expect(phone.getAttribute('aria-invalid')).toBe('true');
    await waitFor(() => expect(document.activeElement).toBe(phone));
    expect(screen.getByLabelText('Bio').getAttribute('aria-invalid')).toBe('true');
    expect(saveButton()).toHaveProperty('disabled', false);
  });

  it('says the session expired on any other failed answer', async () => {
    const { server } = await openProfile();
    server.on('POST', ACCOUNT_PATHS.editProfile, reply(500, { statusCode: 500, message: 'Internal server error' }));

    await replaceText('First name', 'Augusta');
    await userEvent.click(saveButton());

    expect(await screen.findByText('Session Expired! Please Refresh The Page.')).toBeDefined();
    expect(saveButton()).toHaveProperty('disabled', false);
    expect(screen.getByLabelText('First name')).toHaveProperty('value', 'Augusta');
  });

  it('only logs a save that got no answer', async () => {
    const logged = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const { server } = await openProfile();
    server.on('POST', ACCOUNT_PATHS.editProfile, offline());

    await replaceText('First name', 'Augusta');
    await userEvent.click(saveButton());

    await waitFor(() => expect(logged).toHaveBeenCalledWith('Profile save failed', expect.any(TypeError)));
    expect(saveButton()).toHaveProperty('disabled', false);
    expect(screen.queryByText('Session Expired! Please Refresh The Page.')).toBeNull();
  });

  it('sends the phone number as E.164, formatted for the country while typed', async () => {
    const { server } = await openProfile(aUser({ country: 'United States' }));
    server.on('POST', ACCOUNT_PATHS.editProfile, reply(200, aUser({ phoneNumber: '+17021234567' })));

    expect(screen.getByLabelText<HTMLSelectElement>('Phone country').value).toBe('US');
    await userEvent.type(screen.getByLabelText('Phone number'), '7021234567');
    expect(screen.getByLabelText('Phone number')).toHaveProperty('value', '(702) 123-4567');
    await userEvent.click(saveButton());

    await screen.findByRole('button', { name: 'Changes Saved Successfully' });
    expect(server.requestsTo('POST', ACCOUNT_PATHS.editProfile)[0]?.body).toEqual({ phoneNumber: '+17021234567' });
  });

  it('updates the location on request and shows the reloaded place', async () => {
    const server = serveFakeApi().on(
      'GET',
      AUTH_PATHS.userInfo,
      inTurn(
        reply(200, aUser({ country: null, city: null })),
        reply(200, aUser({ country: 'Germany', city: 'Berlin' })),
      ),
    );
    server.on(
      'POST',
      ACCOUNT_PATHS.geolocation,
      reply(200, { message: 'Location saved', country: 'Germany', city: 'Berlin' }),
    );
    rememberSessionInThisBrowser();
    renderApp('/settings/profile');
    await screen.findByRole('heading', { level: 1, name: 'Profile' });
    expect(detail('Country')).toBe('Unknown');

    await userEvent.click(screen.getByRole('button', { name: 'Update location' }));

    await waitFor(() => expect(detail('City')).toBe('Berlin'));
    expect(detail('Country')).toBe('Germany');
    expect(server.requestsTo('POST', ACCOUNT_PATHS.geolocation)[0]?.body).toBeUndefined();
  });

  it('keeps what is typed when the user changes elsewhere (a new picture)', async () => {
    const { store } = await openProfile();
    await replaceText('First name', 'Augusta');

    act(() => {
      store.dispatch(userUpdated(aUser({ avatar: '/api/avatars/new.webp' })));
    });

    await waitFor(() => expect(screen.getByLabelText('First name')).toHaveProperty('value', 'Augusta'));
    expect(screen.getByRole('button', { name: 'Save Changes' })).toHaveProperty('disabled', false);
  });
});
