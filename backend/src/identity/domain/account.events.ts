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
export type AdminGranted = DomainEvent<'AdminGranted', { userId: string; grantedBy: string }>;

export type AccountEvent =
  | UserRegistered
  | EmailVerified
  | ProfileCompleted
  | PasswordChanged
  | PasswordReset
  | TwoFactorEnabled
  | TwoFactorDisabled
  | AdminGranted;

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
] as EventSchema[];
