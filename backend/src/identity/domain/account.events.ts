import type { DomainEvent } from '../../platform/cqrs/decider.js';
import type { EventSchema } from '../../platform/personal-data/event-schemas.js';

export type Gender = 'male' | 'female';

// Personal fields (sealed in the log, erased when the person is forgotten) are marked in `identityEventSchemas`.
export type UserRegistered = DomainEvent<
  'UserRegistered',
  { userId: string; emailAddress: string; passwordHash: string }
>;
export type EmailVerified = DomainEvent<'EmailVerified', { userId: string }>;
export type ProfileCompleted = DomainEvent<
  'ProfileCompleted',
  { userId: string; firstName: string; lastName: string; username: string; gender: Gender; birthDate: string }
>;
export type PasswordChanged = DomainEvent<'PasswordChanged', { userId: string; passwordHash: string }>;
export type PasswordReset = DomainEvent<'PasswordReset', { userId: string; passwordHash: string }>;
export type TwoFactorEnabled = DomainEvent<'TwoFactorEnabled', { userId: string }>;
export type TwoFactorDisabled = DomainEvent<'TwoFactorDisabled', { userId: string }>;
/** "Hide my IP" (DESIGN.md "Matching"): the user's calls go through the SFU. */
export type PrivacySettingsChanged = DomainEvent<'PrivacySettingsChanged', { userId: string; hideIp: boolean }>;
/** Written before roles existed: read as RoleGranted 'admin' (no longer written). */
export type AdminGranted = DomainEvent<'AdminGranted', { userId: string; grantedBy: string }>;
/**
 * The roles that reach the dashboard (spec 6 Admin): a moderator handles reports and appeals and bans for up to 30
 * days; an admin does everything. `grantedBy` is a user id, or `system` (ADMIN_EMAIL) or `cli`.
 */
export type StaffRole = 'moderator' | 'admin';
export type RoleGranted = DomainEvent<
  'RoleGranted',
  { userId: string; role: StaffRole; grantedBy: string; reason: string }
>;
/** The account is back to a plain user; `role` is the one it lost. */
export type RoleRevoked = DomainEvent<
  'RoleRevoked',
  { userId: string; role: StaffRole; revokedBy: string; reason: string }
>;
/** Only the fields that changed are present; '' means cleared. */
export type ProfileEdited = DomainEvent<
  'ProfileEdited',
  { userId: string; firstName?: string; lastName?: string; phoneNumber?: string; bio?: string }
>;
export type AvatarChanged = DomainEvent<'AvatarChanged', { userId: string; avatarUrl: string }>;
export type EmailChanged = DomainEvent<'EmailChanged', { userId: string; emailAddress: string }>;
export type LocationUpdated = DomainEvent<
  'LocationUpdated',
  { userId: string; country: string | null; city: string | null }
>;
/** The person is gone: their key is destroyed right after, so every personal field above reads as erased. */
export type AccountDeleted = DomainEvent<'AccountDeleted', { userId: string }>;

export type AccountEvent =
  | UserRegistered
  | EmailVerified
  | ProfileCompleted
  | PasswordChanged
  | PasswordReset
  | TwoFactorEnabled
  | TwoFactorDisabled
  | AdminGranted
  | RoleGranted
  | RoleRevoked
  | PrivacySettingsChanged
  | ProfileEdited
  | AvatarChanged
  | EmailChanged
  | LocationUpdated
  | AccountDeleted;

export const accountStream = (userId: string) => `identity-user-${userId}`;

const byUser = (d: { userId: string }) => d.userId;

/** DESIGN.md: e-mail, names, birth date (and here the password hash and username) never sit in the log in clear. */
export const identityEventSchemas: EventSchema[] = [
  { type: 'UserRegistered', schemaVersion: 1, subject: byUser, personal: ['emailAddress', 'passwordHash'] },
  { type: 'EmailVerified', schemaVersion: 1 },
  {
    type: 'ProfileCompleted',
    schemaVersion: 1,
    subject: byUser,
    personal: ['firstName', 'lastName', 'username', 'birthDate'],
  },
  { type: 'PasswordChanged', schemaVersion: 1, subject: byUser, personal: ['passwordHash'] },
  { type: 'PasswordReset', schemaVersion: 1, subject: byUser, personal: ['passwordHash'] },
  { type: 'TwoFactorEnabled', schemaVersion: 1 },
  { type: 'TwoFactorDisabled', schemaVersion: 1 },
  { type: 'AdminGranted', schemaVersion: 1 },
  // The reason is typed by an admin about a person: sealed like moderation's reasons.
  { type: 'RoleGranted', schemaVersion: 1, subject: byUser, personal: ['reason'] },
  { type: 'RoleRevoked', schemaVersion: 1, subject: byUser, personal: ['reason'] },
  { type: 'PrivacySettingsChanged', schemaVersion: 1 },
  {
    type: 'ProfileEdited',
    schemaVersion: 1,
    subject: byUser,
    personal: ['firstName', 'lastName', 'phoneNumber', 'bio'],
  },
  { type: 'AvatarChanged', schemaVersion: 1, subject: byUser, personal: ['avatarUrl'] },
  { type: 'EmailChanged', schemaVersion: 1, subject: byUser, personal: ['emailAddress'] },
  { type: 'LocationUpdated', schemaVersion: 1, subject: byUser, personal: ['country', 'city'] },
  { type: 'AccountDeleted', schemaVersion: 1 },
] as EventSchema[];
