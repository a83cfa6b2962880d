import { describe, expect, it } from 'vitest';
import {
  DeciderSpecification,
  type EvolveTable,
  expectFoldChangesOnly,
} from '../../platform/cqrs/decider-specification.js';
import { account, type AccountState, ageOn } from './account.decider.js';
import type { AccountEvent } from './account.events.js';

const context = { now: new Date('2026-11-22T12:00:00Z'), actor: 'u1' };
const spec = DeciderSpecification.for(account);
const given = (events: AccountEvent[]) => spec.given(events, context);
const registered: AccountEvent = {
  type: 'UserRegistered',
  data: { userId: 'u1', emailAddress: 'ada@example.com', passwordHash: 'h' },
};
const profile = { firstName: 'Ada', lastName: 'Lovelace', username: 'ada', gender: 'female' as const };

describe('account', () => {
  it('registers once', () => {
    given([])
      .when({ type: 'Register', userId: 'u1', emailAddress: 'ada@example.com', passwordHash: 'h' })
      .then([registered]);
    given([registered])
      .when({ type: 'Register', userId: 'u1', emailAddress: 'x@example.com', passwordHash: 'h' })
      .thenThrows('account-exists');
  });

  it('completes a profile for an adult, on the day they turn 18 too', () => {
    given([registered])
      .when({ type: 'CompleteProfile', ...profile, birthDate: '2008-11-22' })
      .then([{ type: 'ProfileCompleted', data: { userId: 'u1', ...profile, birthDate: '2008-11-22' } }]);
  });

  it('refuses anyone under 18 on the day of the decision (spec 1)', () => {
    const refusal = given([registered])
      .when({ type: 'CompleteProfile', ...profile, birthDate: '2008-11-23' })
      .thenThrows('under-age');
    expect(refusal.message).toMatch(/18 or older/);
  });

  it('refuses a date that is not one', () => {
    const refusal = given([registered])
      .when({ type: 'CompleteProfile', ...profile, birthDate: '2001-02-30x' })
      .thenThrows('invalid-birth-date');
    expect(refusal.message).toMatch(/YYYY-MM-DD/);
  });

  it('completes a profile only once', () => {
    const completed: AccountEvent = {
      type: 'ProfileCompleted',
      data: { userId: 'u1', ...profile, birthDate: '2000-01-01' },
    };
    const refusal = given([registered, completed])
      .when({ type: 'CompleteProfile', ...profile, birthDate: '2000-01-01' })
      .thenThrows('profile-completed');
    expect(refusal.message).toMatch(/already/);
  });

  it('turns two-factor on and off, and says nothing when already so', () => {
    const on: AccountEvent = { type: 'TwoFactorEnabled', data: { userId: 'u1' } };
    given([registered]).when({ type: 'EnableTwoFactor' }).then([on]);
    given([registered, on]).when({ type: 'EnableTwoFactor' }).thenNothingHappened();
    given([registered, on])
      .when({ type: 'DisableTwoFactor' })
      .then([{ type: 'TwoFactorDisabled', data: { userId: 'u1' } }]);
    given([registered]).when({ type: 'DisableTwoFactor' }).thenNothingHappened();
  });

  describe('roles (spec 6 Admin)', () => {
    const granted = (role: 'moderator' | 'admin'): AccountEvent => ({
      type: 'RoleGranted',
      data: { userId: 'u1', role, grantedBy: 'a1', reason: 'Joins the team' },
    });

    it('grants a role, recording who granted it and why (trimmed), and nothing when it is held already', () => {
      given([registered])
        .when({ type: 'SetRole', role: 'moderator', by: 'a1', reason: '  Joins the team ' })
        .then([granted('moderator')]);
      given([registered, granted('moderator')])
        .when({ type: 'SetRole', role: 'moderator', by: 'a1', reason: 'again' })
        .thenNothingHappened();
      given([registered, granted('moderator')])
        .when({ type: 'SetRole', role: 'admin', by: 'a1', reason: 'Joins the team' })
        .then([granted('admin')]);
    });

    it('reads an AdminGranted of before roles as the admin role', () => {
      const old: AccountEvent = { type: 'AdminGranted', data: { userId: 'u1', grantedBy: 'system' } };
      given([registered, old]).when({ type: 'SetRole', role: 'admin', by: 'a1', reason: 'x' }).thenNothingHappened();
      given([registered, old])
        .when({ type: 'SetRole', role: 'user', by: 'a1', reason: 'Left' })
        .then([{ type: 'RoleRevoked', data: { userId: 'u1', role: 'admin', revokedBy: 'a1', reason: 'Left' } }]);
    });

    it("takes a role away with 'user', naming the role lost; a user without one loses nothing", () => {
      given([registered, granted('moderator')])
        .when({ type: 'SetRole', role: 'user', by: 'a1', reason: 'Left the team' })
        .then([
          { type: 'RoleRevoked', data: { userId: 'u1', role: 'moderator', revokedBy: 'a1', reason: 'Left the team' } },
        ]);
      given([registered]).when({ type: 'SetRole', role: 'user', by: 'a1', reason: 'x' }).thenNothingHappened();
    });

    it('refuses a change of one’s own role, a blank reason, and an unknown or deleted account', () => {
      const own = given([registered, granted('admin')])
        .when({ type: 'SetRole', role: 'user', by: 'u1', reason: 'Stepping down' })
        .thenThrows('own-role');
      expect(own.message).toBe('You cannot change your own role.');
      given([registered]).when({ type: 'SetRole', role: 'admin', by: 'u1', reason: 'Me' }).thenThrows('own-role');
      given([registered]).when({ type: 'SetRole', role: 'admin', by: 'a1', reason: '  ' }).thenThrows('invalid-field');
      given([]).when({ type: 'SetRole', role: 'admin', by: 'a1', reason: 'x' }).thenThrows('no-account');
      given([registered, { type: 'AccountDeleted', data: { userId: 'u1' } }])
        .when({ type: 'SetRole', role: 'moderator', by: 'a1', reason: 'x' })
        .thenThrows('account-deleted');
    });
  });

  it('refuses everything but registration before an account exists', () => {
    expect(given([]).when({ type: 'VerifyEmail' }).thenThrows('no-account').message).toMatch(/no such account/);
  });

  it('records only the profile fields that change, and nothing for an edit that changes nothing', () => {
    const completed: AccountEvent = {
      type: 'ProfileCompleted',
      data: { userId: 'u1', ...profile, birthDate: '1990-12-10' },
    };
    given([registered, completed])
      .when({ type: 'EditProfile', firstName: 'Ada', bio: 'Hi' })
      .then([{ type: 'ProfileEdited', data: { userId: 'u1', bio: 'Hi' } }]);
    const edited: AccountEvent = { type: 'ProfileEdited', data: { userId: 'u1', bio: 'Hi' } };
    given([registered, completed, edited])
      .when({ type: 'EditProfile', bio: 'Hi', lastName: 'Lovelace' })
      .thenNothingHappened();
    given([registered, completed, edited])
      .when({ type: 'EditProfile', bio: '' })
      .then([{ type: 'ProfileEdited', data: { userId: 'u1', bio: '' } }]);
  });

  it('saves a location only when it is new or different (spec 4)', () => {
    const moved: AccountEvent = { type: 'LocationUpdated', data: { userId: 'u1', country: 'GB', city: 'London' } };
    given([registered]).when({ type: 'UpdateLocation', country: 'GB', city: 'London' }).then([moved]);
    given([registered, moved]).when({ type: 'UpdateLocation', country: 'GB', city: 'London' }).thenNothingHappened();
  });

  it('refuses everything once the account is deleted', () => {
    const deleted: AccountEvent = { type: 'AccountDeleted', data: { userId: 'u1' } };
    given([registered]).when({ type: 'DeleteAccount' }).then([deleted]);
    const refusal = given([registered, deleted])
      .when({ type: 'EditProfile', bio: 'back' })
      .thenThrows('account-deleted');
    expect(refusal.message).toContain('this account was deleted');
  });

  it('counts ages as people do', () => {
    expect(ageOn('2000-02-29', new Date('2018-02-28T00:00:00Z'))).toBe(17);
    expect(ageOn('2000-02-29', new Date('2018-03-01T00:00:00Z'))).toBe(18);
    expect(ageOn('1990-06-15', new Date('2026-06-14T23:59:59Z'))).toBe(35);
  });
});

type Registered = Extract<AccountState, { status: 'registered' }>;
/** Every flag false and every other field set, so that any event that moves a field it does not own shows. */
const registeredState: Registered = {
  status: 'registered',
  userId: 'u1',
  emailVerified: false,
  profileCompleted: false,
  twoFactorEnabled: false,
  hideIp: false,
  role: 'user',
  profile: { firstName: 'Ada', lastName: 'Lovelace', bio: 'Hi' },
  location: { country: 'GB', city: 'London' },
};

const evolveTable: EvolveTable<AccountState, AccountEvent> = {
  UserRegistered: {
    on: account.initialState,
    event: { type: 'UserRegistered', data: { userId: 'u1', emailAddress: 'ada@example.com', passwordHash: 'h' } },
    changes: {
      status: 'registered',
      userId: 'u1',
      emailVerified: false,
      profileCompleted: false,
      twoFactorEnabled: false,
      hideIp: false,
      role: 'user',
      profile: {},
      location: { country: null, city: null },
    },
  },
  EmailVerified: { event: { type: 'EmailVerified', data: { userId: 'u1' } }, changes: { emailVerified: true } },
  ProfileCompleted: {
    event: {
      type: 'ProfileCompleted',
      data: {
        userId: 'u1',
        firstName: 'Augusta',
        lastName: 'King',
        username: 'ada',
        gender: 'female',
        birthDate: '1990-12-10',
      },
    },
    changes: { profileCompleted: true, profile: { firstName: 'Augusta', lastName: 'King', bio: 'Hi' } },
  },
  // The hash is the login read model's; the decider keeps nothing of it.
  PasswordChanged: { event: { type: 'PasswordChanged', data: { userId: 'u1', passwordHash: 'h2' } }, changes: {} },
  PasswordReset: { event: { type: 'PasswordReset', data: { userId: 'u1', passwordHash: 'h2' } }, changes: {} },
  TwoFactorEnabled: {
    event: { type: 'TwoFactorEnabled', data: { userId: 'u1' } },
    changes: { twoFactorEnabled: true },
  },
  TwoFactorDisabled: {
    on: { ...registeredState, twoFactorEnabled: true },
    event: { type: 'TwoFactorDisabled', data: { userId: 'u1' } },
    changes: { twoFactorEnabled: false },
  },
  // Written before roles existed: read as the admin role.
  AdminGranted: {
    event: { type: 'AdminGranted', data: { userId: 'u1', grantedBy: 'system' } },
    changes: { role: 'admin' },
  },
  RoleGranted: {
    event: { type: 'RoleGranted', data: { userId: 'u1', role: 'moderator', grantedBy: 'a1', reason: 'Runs nights' } },
    changes: { role: 'moderator' },
  },
  RoleRevoked: {
    on: { ...registeredState, role: 'admin' },
    event: { type: 'RoleRevoked', data: { userId: 'u1', role: 'admin', revokedBy: 'a1', reason: 'Left the team' } },
    changes: { role: 'user' },
  },
  PrivacySettingsChanged: {
    event: { type: 'PrivacySettingsChanged', data: { userId: 'u1', hideIp: true } },
    changes: { hideIp: true },
  },
  ProfileEdited: {
    event: { type: 'ProfileEdited', data: { userId: 'u1', lastName: 'King', phoneNumber: '+44 20 7946 0000' } },
    changes: { profile: { firstName: 'Ada', lastName: 'King', phoneNumber: '+44 20 7946 0000', bio: 'Hi' } },
  },
  // The state has no avatar and no e-mail: these two change nothing a decision reads (they once fell through
  // into TwoFactorEnabled, STYLE.md).
  AvatarChanged: {
    event: { type: 'AvatarChanged', data: { userId: 'u1', avatarUrl: '/api/avatars/a.webp' } },
    changes: {},
  },
  EmailChanged: {
    event: { type: 'EmailChanged', data: { userId: 'u1', emailAddress: 'augusta@example.com' } },
    changes: {},
  },
  LocationUpdated: {
    event: { type: 'LocationUpdated', data: { userId: 'u1', country: 'FR', city: 'Paris' } },
    changes: { location: { country: 'FR', city: 'Paris' } },
  },
  // Only the id survives a deletion: every other field of the registered account is gone.
  AccountDeleted: {
    event: { type: 'AccountDeleted', data: { userId: 'u1' } },
    changes: {
      status: 'deleted',
      emailVerified: undefined,
      profileCompleted: undefined,
      twoFactorEnabled: undefined,
      hideIp: undefined,
      role: undefined,
      profile: undefined,
      location: undefined,
    },
  },
};

describe('account evolve', () => {
  it.each(Object.entries(evolveTable))(
    '%s, folded alone onto a representative state, changes only its own fields',
    (_type, { on, event, changes }) => expectFoldChangesOnly(account, on ?? registeredState, event, changes),
  );
});
