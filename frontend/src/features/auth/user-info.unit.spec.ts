import { describe, expect, it } from 'vitest';
import { aNewUser, aUser } from './auth-test-support';
import { displayName, isUserInfo, needsSignupSteps } from './user-info';

describe('user info', () => {
  it('accepts the contract and refuses what breaks it', () => {
    expect(isUserInfo(aUser())).toBe(true);
    expect(isUserInfo(aNewUser())).toBe(true);
    expect(isUserInfo({ message: 'Serendip is up' })).toBe(false);
    expect(isUserInfo({ ...aUser(), isFinishedSteps: 'yes' })).toBe(false);
    expect(isUserInfo({ ...aUser(), gender: 'other' })).toBe(false);
    expect(isUserInfo(null)).toBe(false);
  });

  it('gates sign-up only when neither step flag is set (spec 4)', () => {
    expect(needsSignupSteps(aNewUser())).toBe(true);
    expect(needsSignupSteps(aNewUser({ isFirstSteps: true }))).toBe(false);
    expect(needsSignupSteps(aUser())).toBe(false);
  });

  it('greets by first name, by e-mail address before there is one', () => {
    expect(displayName(aUser())).toBe('Ada');
    expect(displayName(aNewUser())).toBe('ada@example.com');
  });
});
