import { type UserInfo, userInfoSchema } from '@serendip/proto';

/**
 * Whether an answer is the `UserInfo` contract (proto/src/http/auth.ts), by its schema. The HTTP module returns
 * bodies unchecked; a half-deployed server or a proxy page must not become the signed-in user.
 */
export function isUserInfo(value: unknown): value is UserInfo {
  return userInfoSchema.safeParse(value).success;
}

/** spec 4 "Signup gating": neither flag set means the continue-signup step is still owed. */
export function needsSignupSteps(user: UserInfo): boolean {
  return !user.isFinishedSteps && !user.isFirstSteps;
}

/** How the header greets the user: the first name once the profile has one, the e-mail address before. */
export function displayName(user: UserInfo): string {
  return user.firstName ?? user.emailAddress;
}
