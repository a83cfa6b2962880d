import { describe, expect, it } from 'vitest';
import { aUser } from './auth-test-support';
import { sessionReducer, sessionStarted, userUpdated } from './session.slice';

describe('the session slice', () => {
  it('keeps how the session began when an answer about the user does not say (only user info and sign-in do)', () => {
    const started = sessionReducer(
      undefined,
      sessionStarted(aUser({ role: 'moderator', twoFactorEnabled: false, signedInWithCode: false })),
    );
    // POST /user/enable-twofac answers the user without it: the session still began with the password alone.
    const after = sessionReducer(started, userUpdated(aUser({ role: 'moderator', twoFactorEnabled: true })));
    expect(after.user).toMatchObject({ twoFactorEnabled: true, signedInWithCode: false });
    // An answer that says so wins.
    expect(sessionReducer(after, userUpdated(aUser({ signedInWithCode: true }))).user?.signedInWithCode).toBe(true);
  });
});
