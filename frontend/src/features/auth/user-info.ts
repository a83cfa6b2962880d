import type { UserInfo } from '@serendip/proto';

const NULLABLE_TEXT_FIELDS = ['firstName', 'lastName', 'username', 'userBirthDate'] as const;
const FLAG_FIELDS = [
  'emailVerified',
  'isAdmin',
  'isBanned',
  'twoFactorEnabled',
  'hideIp',
  'isFinishedSteps',
  'isFirstSteps',
] as const;

/**
 * Whether an answer is the `UserInfo` contract (proto/src/http/auth.ts). The HTTP module returns bodies unchecked;
 * a half-deployed server or a proxy page must not become the signed-in user.
 */
export function isUserInfo(value: unknown): value is UserInfo {
  if (typeof value !== 'object' || value === null) return false;
  const user = value as Record<string, unknown>;
  return (
    typeof user._id === 'string' &&
    user._id !== '' &&
    typeof user.emailAddress === 'string' &&
    NULLABLE_TEXT_FIELDS.every((field) => user[field] === null || typeof user[field] === 'string') &&
    FLAG_FIELDS.every((field) => typeof user[field] === 'boolean') &&
    (user.gender === null || user.gender === 'male' || user.gender === 'female') &&
    (user.userAge === null || typeof user.userAge === 'number')
  );
}

/** spec 4 "Signup gating": neither flag set means the continue-signup step is still owed. */
export function needsSignupSteps(user: UserInfo): boolean {
  return !user.isFinishedSteps && !user.isFirstSteps;
}

/** How the header greets the user: the first name once the profile has one, the e-mail address before. */
export function displayName(user: UserInfo): string {
  return user.firstName ?? user.emailAddress;
}
