import { describe, expect, it } from 'vitest';
import { DomainError } from '../../platform/cqrs/decider.js';
import { account, type AccountCommand, ageOn } from './account.decider.js';
import type { AccountEvent } from './account.events.js';

const now = new Date('2026-11-22T12:00:00Z');
const given = (events: AccountEvent[]) => ({
  when: (command: AccountCommand) => () =>
    account.decide(command, events.reduce(account.evolve, account.initialState), { now, actor: 'u1' }),
});
const registered: AccountEvent = {
  type: 'UserRegistered',
  data: { userId: 'u1', emailAddress: 'ada@example.com', passwordHash: 'h' },
};
const profile = { firstName: 'Ada', lastName: 'Lovelace', username: 'ada', gender: 'female' as const };

describe('account', () => {
  it('registers once', () => {
    expect(
      given([]).when({ type: 'Register', userId: 'u1', emailAddress: 'ada@example.com', passwordHash: 'h' })(),
    ).toEqual([registered]);
    expect(
      given([registered]).when({ type: 'Register', userId: 'u1', emailAddress: 'x@example.com', passwordHash: 'h' }),
    ).toThrow(DomainError);
  });

  it('completes a profile for an adult, on the day they turn 18 too', () => {
    const events = given([registered]).when({ type: 'CompleteProfile', ...profile, birthDate: '2008-11-22' })();
    expect(events).toEqual([{ type: 'ProfileCompleted', data: { userId: 'u1', ...profile, birthDate: '2008-11-22' } }]);
  });

  it('refuses anyone under 18 on the day of the decision (spec 1)', () => {
    expect(given([registered]).when({ type: 'CompleteProfile', ...profile, birthDate: '2008-11-23' })).toThrow(
      /18 or older/,
    );
  });

  it('refuses a date that is not one', () => {
    expect(given([registered]).when({ type: 'CompleteProfile', ...profile, birthDate: '2001-02-30x' })).toThrow(
      /YYYY-MM-DD/,
    );
  });

  it('completes a profile only once', () => {
    const completed: AccountEvent = {
      type: 'ProfileCompleted',
      data: { userId: 'u1', ...profile, birthDate: '2000-01-01' },
    };
    expect(
      given([registered, completed]).when({ type: 'CompleteProfile', ...profile, birthDate: '2000-01-01' }),
    ).toThrow(/already/);
  });

  it('turns two-factor on and off, and says nothing when already so', () => {
    expect(given([registered]).when({ type: 'EnableTwoFactor' })()).toEqual([
      { type: 'TwoFactorEnabled', data: { userId: 'u1' } },
    ]);
    const on: AccountEvent = { type: 'TwoFactorEnabled', data: { userId: 'u1' } };
    expect(given([registered, on]).when({ type: 'EnableTwoFactor' })()).toEqual([]);
    expect(given([registered]).when({ type: 'DisableTwoFactor' })()).toEqual([]);
  });

  it('grants admin once, recording who granted it', () => {
    expect(given([registered]).when({ type: 'GrantAdmin', grantedBy: 'system' })()).toEqual([
      { type: 'AdminGranted', data: { userId: 'u1', grantedBy: 'system' } },
    ]);
  });

  it('refuses everything but registration before an account exists', () => {
    expect(given([]).when({ type: 'VerifyEmail' })).toThrow(/no such account/);
  });

  it('records only the profile fields that change, and nothing for an edit that changes nothing', () => {
    const completed: AccountEvent = {
      type: 'ProfileCompleted',
      data: { userId: 'u1', ...profile, birthDate: '1990-12-10' },
    };
    expect(given([registered, completed]).when({ type: 'EditProfile', firstName: 'Ada', bio: 'Hi' })()).toEqual([
      { type: 'ProfileEdited', data: { userId: 'u1', bio: 'Hi' } },
    ]);
    const edited: AccountEvent = { type: 'ProfileEdited', data: { userId: 'u1', bio: 'Hi' } };
    expect(
      given([registered, completed, edited]).when({ type: 'EditProfile', bio: 'Hi', lastName: 'Lovelace' })(),
    ).toEqual([]);
    expect(given([registered, completed, edited]).when({ type: 'EditProfile', bio: '' })()).toEqual([
      { type: 'ProfileEdited', data: { userId: 'u1', bio: '' } },
    ]);
  });

  it('saves a location only when it is new or different (spec 4)', () => {
    const moved: AccountEvent = { type: 'LocationUpdated', data: { userId: 'u1', country: 'GB', city: 'London' } };
    expect(given([registered]).when({ type: 'UpdateLocation', country: 'GB', city: 'London' })()).toEqual([moved]);
    expect(given([registered, moved]).when({ type: 'UpdateLocation', country: 'GB', city: 'London' })()).toEqual([]);
  });

  it('refuses everything once the account is deleted', () => {
    const deleted: AccountEvent = { type: 'AccountDeleted', data: { userId: 'u1' } };
    expect(given([registered]).when({ type: 'DeleteAccount' })()).toEqual([deleted]);
    expect(given([registered, deleted]).when({ type: 'EditProfile', bio: 'back' })).toThrow('this account was deleted');
  });

  it('counts ages as people do', () => {
    expect(ageOn('2000-02-29', new Date('2018-02-28T00:00:00Z'))).toBe(17);
    expect(ageOn('2000-02-29', new Date('2018-03-01T00:00:00Z'))).toBe(18);
    expect(ageOn('1990-06-15', new Date('2026-06-14T23:59:59Z'))).toBe(35);
  });
});
