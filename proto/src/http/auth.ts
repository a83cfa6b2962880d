import { z } from 'zod/mini';

/**
 * Identity's HTTP contracts (spec 3 "User", spec 7 calls). Paths are under /api. The server validates every body
 * itself; these types are what both sides compile against, and the answers' schemas are what the client parses.
 */

const nonEmpty = z.string().check(z.minLength(1));
const optionalText = z.nullable(z.string());

export const genderSchema = z.enum(['male', 'female']);
export type Gender = z.infer<typeof genderSchema>;

/**
 * Who may do what (spec 6 Admin, as moderation teams work): a `moderator` handles reports and appeals and bans for up
 * to 30 days; an `admin` does everything, permanent bans and granting roles included. Both reach the dashboard.
 */
export const roleSchema = z.enum(['user', 'moderator', 'admin']);
export type Role = z.infer<typeof roleSchema>;
/** The roles that reach the admin dashboard. */
export const isStaff = (role: Role) => role === 'moderator' || role === 'admin';

/**
 * POST /dash/users/{userId}/role (admins only): gives the account a role, or takes it away with 'user'. Recorded with
 * the reason (RoleGranted / RoleRevoked); nobody changes their own. Answers `{ message }`.
 */
export interface SetRoleRequest {
  role: Role;
  reason: string;
}

/** What the dashboard's routes answer a moderator or admin who has not turned two-factor login on (403). */
export const TWO_FACTOR_FOR_DASHBOARD = 'Turn on two-factor login to use the dashboard.';

/**
 * What they hear with two-factor login on, from a session the password alone started (403): a stolen password must
 * not reach the dashboard by turning two-factor on from the thief's own session.
 */
export const CODE_SESSION_FOR_DASHBOARD = 'Sign in again with the code we e-mail you to use the dashboard.';

/**
 * The signed-in user as the client sees it (GET /auth/user-info). Never a hash, a token or another user's data.
 * The client parses every answer that carries it: a half-deployed server or a proxy's page must not become the user.
 */
export const userInfoSchema = z.object({
  _id: nonEmpty,
  emailAddress: z.string(),
  emailVerified: z.boolean(),
  firstName: optionalText,
  lastName: optionalText,
  username: optionalText,
  gender: z.nullable(genderSchema),
  /** YYYY-MM-DD */
  userBirthDate: optionalText,
  userAge: z.nullable(z.number()),
  /** E.164, or null. */
  phoneNumber: optionalText,
  bio: optionalText,
  /** URL of the 512 px WebP avatar, or null. */
  avatar: optionalText,
  /** ISO 3166-1 alpha-2 code of the last known location, or null ('Unknown' on screen). */
  country: optionalText,
  city: optionalText,
  /** spec 3: true for the `admin` role only (the 'Administrator' badge). */
  isAdmin: z.boolean(),
  role: roleSchema,
  isBanned: z.boolean(),
  twoFactorEnabled: z.boolean(),
  /** "Hide my IP": this user's calls go through the SFU, so no stranger learns their IP address. */
  hideIp: z.boolean(),
  /** spec 4 "Signup gating": false until the continue-signup step (names, username, gender, birth date) is done. */
  isFinishedSteps: z.boolean(),
  isFirstSteps: z.boolean(),
  /**
   * This session was started with the mailed sign-in code (staff need that for the dashboard, spec 6 Admin). Only in
   * the answers that know the session (GET /auth/user-info, login, the code's check); absent elsewhere.
   */
  signedInWithCode: z.optional(z.boolean()),
});
export type UserInfo = z.infer<typeof userInfoSchema>;

export interface SignupRequest {
  emailAddress: string;
  password: string;
}

export interface VerifyEmailRequest {
  token: string;
}

export interface CompleteSignupRequest {
  firstName: string;
  lastName: string;
  username: string;
  gender: Gender;
  /** YYYY-MM-DD; the server refuses anyone under 18 on that date. */
  birthDate: string;
}

export interface LoginRequest {
  emailAddress: string;
  password: string;
}

/** Login either signs in, or asks for the 6-digit code e-mailed to the user (two-factor on). */
export const loginAnswerSchema = z.union([
  userInfoSchema,
  z.object({ twoFactorRequired: z.literal(true), challengeId: nonEmpty }),
]);
export type LoginAnswer = z.infer<typeof loginAnswerSchema>;

export interface LoginVerifyRequest {
  challengeId: string;
  code: string;
}

export interface PasswordResetRequest {
  emailAddress: string;
}

/** POST /user/disable-twofac (a deviation from spec 7's empty body: the current password is asked). */
export interface DisableTwoFactorRequest {
  currentPassword: string;
}

export interface ResetPasswordRequest {
  token: string;
  newPassword: string;
}

/**
 * POST /auth/refresh-token: status 200 is success (spec 7). The new access token comes as an HttpOnly cookie only, never
 * in the answer (a deviation from spec 7: a script on the page must not hold it); the answer says how long it lasts.
 */
export const refreshAnswerSchema = z.object({ expiresInSeconds: z.int().check(z.gt(0)) });
export type RefreshAnswer = z.infer<typeof refreshAnswerSchema>;

/** GET /sessions (spec 3 "Login session"). */
export const loginSessionSchema = z.object({
  _id: nonEmpty,
  createdAt: z.string(),
  userAgent: optionalText,
  city: optionalText,
  /** ISO 3166-1 alpha-2 code of where the session signed in ('DE'), or null; the client shows the English name. */
  country: optionalText,
  ip: optionalText,
  isCurrent: z.boolean(),
});
export type LoginSession = z.infer<typeof loginSessionSchema>;

export interface DeleteSessionRequest {
  sessionId: string;
}

export const AUTH_PATHS = {
  signup: '/api/auth/signup',
  verifyEmail: '/api/auth/verify-email',
  resendVerification: '/api/auth/verify-email/resend',
  completeSignup: '/api/auth/signup/complete',
  login: '/api/auth/login',
  loginVerify: '/api/auth/login/verify',
  userInfo: '/api/auth/user-info',
  refreshToken: '/api/auth/refresh-token',
  logout: '/api/auth/logout',
  passwordReset: '/api/auth/password-reset',
  resetPassword: '/api/auth/reset-password',
  sessions: '/api/sessions',
  deleteSession: '/api/sessions/delete',
  /** Ends every session of the caller but the one making the call; answers the refreshed list. */
  deleteOtherSessions: '/api/sessions/delete-others',
  enableTwoFactor: '/api/user/enable-twofac',
  disableTwoFactor: '/api/user/disable-twofac',
} as const;

export function isTwoFactorChallenge(answer: LoginAnswer): answer is { twoFactorRequired: true; challengeId: string } {
  return 'twoFactorRequired' in answer && answer.twoFactorRequired === true;
}
