/**
 * Identity's HTTP contracts (issue 4; spec 3 "User", spec 7 calls). Paths are under /api. The server validates
 * every body itself; these types are what both sides compile against.
 */

export type Gender = 'male' | 'female';

/** The signed-in user as the client sees it (GET /auth/user-info). Never a hash, a token or another user's data. */
export interface UserInfo {
  _id: string;
  emailAddress: string;
  emailVerified: boolean;
  firstName: string | null;
  lastName: string | null;
  username: string | null;
  gender: Gender | null;
  /** YYYY-MM-DD */
  userBirthDate: string | null;
  userAge: number | null;
  /** E.164, or null. */
  phoneNumber: string | null;
  bio: string | null;
  /** URL of the 512 px WebP avatar, or null. */
  avatar: string | null;
  /** ISO 3166-1 alpha-2 code of the last known location, or null ('Unknown' on screen). */
  country: string | null;
  city: string | null;
  isAdmin: boolean;
  isBanned: boolean;
  twoFactorEnabled: boolean;
  /** issue 8 "hide my IP": this user's calls go through the SFU, so no stranger learns their IP address. */
  hideIp: boolean;
  /** spec 4 "Signup gating": false until the continue-signup step (names, username, gender, birth date) is done. */
  isFinishedSteps: boolean;
  isFirstSteps: boolean;
}

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
export type LoginAnswer = UserInfo | { twoFactorRequired: true; challengeId: string };

export interface LoginVerifyRequest {
  challengeId: string;
  code: string;
}

export interface PasswordResetRequest {
  emailAddress: string;
}

export interface ResetPasswordRequest {
  token: string;
  newPassword: string;
}

/** POST /auth/refresh-token: status 200 is success (spec 7); the token also comes as an HttpOnly cookie. */
export interface RefreshAnswer {
  accessToken: string;
}

/** GET /sessions (spec 3 "Login session"). */
export interface LoginSession {
  _id: string;
  createdAt: string;
  userAgent: string | null;
  city: string | null;
  /** ISO 3166-1 alpha-2 code of where the session signed in ('DE'), or null; the client shows the English name. */
  country: string | null;
  ip: string | null;
  isCurrent: boolean;
}

export interface DeleteSessionRequest {
  sessionId: string;
}

export const AUTH_PATHS = {
  signup: '/api/auth/signup',
  verifyEmail: '/api/auth/verify-email',
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
