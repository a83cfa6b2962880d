import { type DecisionContext, type Decider, DomainError, invalidField } from '../../platform/cqrs/decider.js';
import type { AccountEvent, Gender, StaffRole } from './account.events.js';

export type Role = 'user' | StaffRole;

export type AccountCommand =
  | { type: 'Register'; userId: string; emailAddress: string; passwordHash: string }
  | { type: 'VerifyEmail' }
  | {
      type: 'CompleteProfile';
      firstName: string;
      lastName: string;
      username: string;
      gender: Gender;
      birthDate: string;
    }
  | { type: 'ChangePassword'; passwordHash: string }
  | { type: 'ResetPassword'; passwordHash: string }
  | { type: 'EnableTwoFactor' }
  | { type: 'DisableTwoFactor' }
  | { type: 'SetHideIp'; hideIp: boolean }
  /** spec 6 Admin: `by` is the acting admin's user id, or `system` / `cli`. 'user' takes the role away. */
  | { type: 'SetRole'; role: Role; by: string; reason: string }
  | { type: 'EditProfile'; firstName?: string; lastName?: string; phoneNumber?: string; bio?: string }
  | { type: 'ChangeAvatar'; avatarUrl: string }
  | { type: 'ChangeEmail'; emailAddress: string }
  | { type: 'UpdateLocation'; country: string | null; city: string | null }
  | { type: 'DeleteAccount' };

export type AccountState =
  | { status: 'none' }
  | {
      status: 'registered';
      userId: string;
      emailVerified: boolean;
      profileCompleted: boolean;
      twoFactorEnabled: boolean;
      hideIp: boolean;
      role: Role;
      /** What the decider needs to say "nothing changed" (no event) instead of repeating the same value. */
      profile: { firstName?: string; lastName?: string; phoneNumber?: string; bio?: string };
      location: { country: string | null; city: string | null };
    }
  | { status: 'deleted'; userId: string };

/** spec 1: every user must be 18 or older. */
export const MINIMUM_AGE = 18;

/** Whole years between a birth date (YYYY-MM-DD) and a day, as a person counts their age. */
export function ageOn(birthDate: string, on: Date): number {
  const [y, m, d] = birthDate.split('-').map(Number) as [number, number, number];
  const years = on.getUTCFullYear() - y;
  const hadBirthday = on.getUTCMonth() + 1 > m || (on.getUTCMonth() + 1 === m && on.getUTCDate() >= d);
  return hadBirthday ? years : years - 1;
}

export const account: Decider<AccountCommand, AccountState, AccountEvent> = {
  initialState: { status: 'none' },

  evolve(state, event) {
    switch (event.type) {
      case 'UserRegistered':
        return {
          status: 'registered',
          userId: event.data.userId,
          emailVerified: false,
          profileCompleted: false,
          twoFactorEnabled: false,
          hideIp: false,
          role: 'user',
          profile: {},
          location: { country: null, city: null },
        };
      case 'EmailVerified':
        return state.status === 'registered' ? { ...state, emailVerified: true } : state;
      case 'ProfileCompleted':
        return state.status === 'registered'
          ? {
              ...state,
              profileCompleted: true,
              profile: { ...state.profile, firstName: event.data.firstName, lastName: event.data.lastName },
            }
          : state;
      case 'ProfileEdited': {
        if (state.status !== 'registered') return state;
        const { userId: _userId, ...changes } = event.data;
        return { ...state, profile: { ...state.profile, ...changes } };
      }
      case 'LocationUpdated':
        return state.status === 'registered'
          ? { ...state, location: { country: event.data.country, city: event.data.city } }
          : state;
      case 'AccountDeleted':
        return { status: 'deleted', userId: event.data.userId };
      // Nothing the decider decides on: the avatar and the address live in the read model only.
      case 'AvatarChanged':
      case 'EmailChanged':
      case 'PasswordChanged':
      case 'PasswordReset':
        return state;
      case 'TwoFactorEnabled':
        return state.status === 'registered' ? { ...state, twoFactorEnabled: true } : state;
      case 'TwoFactorDisabled':
        return state.status === 'registered' ? { ...state, twoFactorEnabled: false } : state;
      case 'AdminGranted':
        return state.status === 'registered' ? { ...state, role: 'admin' } : state;
      case 'RoleGranted':
        return state.status === 'registered' ? { ...state, role: event.data.role } : state;
      case 'RoleRevoked':
        return state.status === 'registered' ? { ...state, role: 'user' } : state;
      case 'PrivacySettingsChanged':
        return state.status === 'registered' ? { ...state, hideIp: event.data.hideIp } : state;
      default: {
        const unknown: never = event;
        throw new Error(`unknown event ${(unknown as { type: string }).type}`);
      }
    }
  },

  decide(command, state, context) {
    if (command.type === 'Register') {
      if (state.status !== 'none') throw new DomainError('account-exists', 'this account already exists');
      const { userId, emailAddress, passwordHash } = command;
      return [{ type: 'UserRegistered', data: { userId, emailAddress, passwordHash } }];
    }
    if (state.status === 'deleted') throw new DomainError('account-deleted', 'this account was deleted');
    if (state.status !== 'registered') throw new DomainError('no-account', 'no such account');
    const userId = state.userId;
    switch (command.type) {
      case 'VerifyEmail':
        return state.emailVerified ? [] : [{ type: 'EmailVerified', data: { userId } }];
      case 'CompleteProfile':
        return completeProfile(command, state, context);
      case 'ChangePassword':
        return [{ type: 'PasswordChanged', data: { userId, passwordHash: command.passwordHash } }];
      case 'ResetPassword':
        return [{ type: 'PasswordReset', data: { userId, passwordHash: command.passwordHash } }];
      case 'EnableTwoFactor':
        return state.twoFactorEnabled ? [] : [{ type: 'TwoFactorEnabled', data: { userId } }];
      case 'DisableTwoFactor':
        return state.twoFactorEnabled ? [{ type: 'TwoFactorDisabled', data: { userId } }] : [];
      case 'SetHideIp':
        return state.hideIp === command.hideIp
          ? []
          : [{ type: 'PrivacySettingsChanged', data: { userId, hideIp: command.hideIp } }];
      case 'SetRole':
        return setRole(command, state);
      case 'EditProfile': {
        const { type: _type, ...fields } = command;
        // Only what differs from the stored profile; an empty edit records nothing.
        const changes = Object.fromEntries(
          Object.entries(fields).filter(
            ([key, value]) => value !== undefined && value !== (state.profile[key as keyof typeof fields] ?? ''),
          ),
        );
        return Object.keys(changes).length ? [{ type: 'ProfileEdited', data: { userId, ...changes } }] : [];
      }
      case 'ChangeAvatar':
        return [{ type: 'AvatarChanged', data: { userId, avatarUrl: command.avatarUrl } }];
      case 'ChangeEmail':
        return [{ type: 'EmailChanged', data: { userId, emailAddress: command.emailAddress } }];
      case 'UpdateLocation': {
        // spec 4 "Geolocation": saved only when missing or different.
        const same = state.location.country === command.country && state.location.city === command.city;
        return same
          ? []
          : [{ type: 'LocationUpdated', data: { userId, country: command.country, city: command.city } }];
      }
      case 'DeleteAccount':
        return [{ type: 'AccountDeleted', data: { userId } }];
      default: {
        const unknown: never = command;
        throw new Error(`unknown command ${(unknown as { type: string }).type}`);
      }
    }
  },
};

function setRole(
  command: Extract<AccountCommand, { type: 'SetRole' }>,
  state: Extract<AccountState, { status: 'registered' }>,
): AccountEvent[] {
  const { userId } = state;
  // Nobody raises or lowers themselves: a role comes from another admin (or the operator), and an admin cannot leave
  // the team without another admin seeing it.
  if (command.by === userId) {
    throw new DomainError('own-role', 'You cannot change your own role.', { kind: 'forbidden' });
  }
  const reason = command.reason.trim();
  if (!reason) throw invalidField('reason', 'reason should not be empty');
  if (command.role === state.role) return [];
  if (command.role === 'user') {
    const role = state.role as StaffRole;
    return [{ type: 'RoleRevoked', data: { userId, role, revokedBy: command.by, reason } }];
  }
  return [{ type: 'RoleGranted', data: { userId, role: command.role, grantedBy: command.by, reason } }];
}

function completeProfile(
  command: Extract<AccountCommand, { type: 'CompleteProfile' }>,
  state: Extract<AccountState, { status: 'registered' }>,
  context: DecisionContext,
): AccountEvent[] {
  if (state.profileCompleted) throw new DomainError('profile-completed', 'the profile is already complete');
  if (!/^\d{4}-\d{2}-\d{2}$/.test(command.birthDate) || Number.isNaN(Date.parse(`${command.birthDate}T00:00:00Z`))) {
    throw new DomainError('invalid-birth-date', 'birthDate must be a date (YYYY-MM-DD)');
  }
  if (ageOn(command.birthDate, context.now) < MINIMUM_AGE) {
    throw new DomainError('under-age', `you must be ${MINIMUM_AGE} or older to use Serendip`);
  }
  const { firstName, lastName, username, gender, birthDate } = command;
  return [
    { type: 'ProfileCompleted', data: { userId: state.userId, firstName, lastName, username, gender, birthDate } },
  ];
}
