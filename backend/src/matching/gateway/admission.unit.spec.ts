import type { UserInfo } from '@serendip/proto';
import { describe, expect, it } from 'vitest';
import { admit, admitSocket } from './admission.js';

const ada: UserInfo = {
  _id: 'u1',
  emailAddress: 'ada@example.com',
  emailVerified: true,
  firstName: 'Ada',
  lastName: 'Lovelace',
  username: 'ada',
  gender: 'female',
  userBirthDate: '1990-12-10',
  userAge: 35,
  phoneNumber: '+447700900123',
  bio: 'Engines',
  avatar: '/api/avatars/a.webp',
  country: 'GB',
  city: 'London',
  isAdmin: false,
  role: 'user',
  isBanned: false,
  twoFactorEnabled: false,
  isFinishedSteps: true,
  isFirstSteps: false,
  hideIp: false,
};

describe('who may open the video socket', () => {
  it("matches on the server's record and shows the partner only the public profile", () => {
    expect(admit(ada, 'mobile')).toEqual({
      profile: {
        gender: 'female',
        hideIp: false,
        age: 35,
        country: 'GB',
        // No id: the partner gets a per-match one at pairing.
        public: {
          firstName: 'Ada',
          userAge: 35,
          gender: 'female',
          country: 'GB',
          avatar: '/api/avatars/a.webp',
          isAdmin: false,
          deviceType: 'mobile',
        },
      },
    });
    // No surname, e-mail, phone, city, birth date or bio ever reaches a stranger.
    const shown = JSON.stringify(admit(ada, 'desktop'));
    for (const secret of ['u1', 'Lovelace', 'ada@example.com', '+447700900123', 'London', '1990-12-10', 'Engines']) {
      expect(shown).not.toContain(secret);
    }
  });

  it('refuses a banned user, an unfinished sign-up, and nobody signed in, each with its reason', () => {
    expect(admit({ ...ada, isBanned: true }, 'desktop')).toEqual({
      refusal: { code: 'banned', reason: 'Your account is restricted.' },
    });
    expect(admit({ ...ada, isFinishedSteps: false, gender: null, userAge: null }, 'desktop')).toMatchObject({
      refusal: { code: 'signup-unfinished' },
    });
    expect(admit(undefined, 'desktop')).toMatchObject({ refusal: { code: 'unauthenticated' } });
  });

  it('lets an unconfirmed e-mail address open the socket but not start matching, saying why', () => {
    const unconfirmed = { ...ada, emailVerified: false };
    expect(admitSocket(unconfirmed)).toBeUndefined();
    expect(admit(unconfirmed, 'desktop')).toEqual({
      refusal: { code: 'email-unconfirmed', reason: 'Confirm your e-mail address to start matching.' },
    });
    // The other refusals come first: they close the socket, an unconfirmed address does not.
    expect(admit({ ...unconfirmed, isBanned: true }, 'desktop')).toMatchObject({ refusal: { code: 'banned' } });
    expect(admitSocket({ ...ada, isBanned: true })).toEqual({ code: 'banned', reason: 'Your account is restricted.' });
  });
});
