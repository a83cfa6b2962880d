import {
  AUTH_PATHS,
  type CompleteSignupRequest,
  type LoginAnswer,
  loginAnswerSchema,
  type LoginRequest,
  type LoginVerifyRequest,
  type PasswordResetRequest,
  type ResetPasswordRequest,
  type SignupRequest,
  type UserInfo,
  type VerifyEmailRequest,
} from '@serendip/proto';
import { API_BASE_PATH, type HttpClient, httpClient } from '../../shared/http/http-client';
import { isUserInfo } from './user-info';

/** Identity's calls (spec 7), each answer checked against the proto contract before anyone trusts it. */
export interface AuthApi {
  fetchUserInfo(): Promise<UserInfo>;
  /** Rotates the session through the HTTP module's one shared refresh; rejects unless the server answered 200. */
  refreshSession(): Promise<void>;
  logout(): Promise<void>;
  signup(request: SignupRequest): Promise<UserInfo>;
  verifyEmail(request: VerifyEmailRequest): Promise<void>;
  /** A new sign-up link to the signed-in account's address; answers the server's sentence to show. */
  resendVerification(): Promise<string>;
  completeSignup(request: CompleteSignupRequest): Promise<UserInfo>;
  login(request: LoginRequest): Promise<LoginAnswer>;
  verifyLogin(request: LoginVerifyRequest): Promise<UserInfo>;
  requestPasswordReset(request: PasswordResetRequest): Promise<void>;
  resetPassword(request: ResetPasswordRequest): Promise<void>;
}

/** The server answered 2xx with something that is not the contract. */
export class UnexpectedAnswerError extends Error {
  override readonly name = 'UnexpectedAnswerError';
  constructor(readonly path: string) {
    super(`Unexpected answer from ${path}`);
  }
}

/** AUTH_PATHS carry the /api prefix; the HTTP module adds it itself. */
function underApi(path: string): string {
  if (!path.startsWith(`${API_BASE_PATH}/`)) throw new Error(`${path} is not under ${API_BASE_PATH}`);
  return path.slice(API_BASE_PATH.length);
}

const PATHS = {
  signup: underApi(AUTH_PATHS.signup),
  verifyEmail: underApi(AUTH_PATHS.verifyEmail),
  resendVerification: underApi(AUTH_PATHS.resendVerification),
  completeSignup: underApi(AUTH_PATHS.completeSignup),
  login: underApi(AUTH_PATHS.login),
  loginVerify: underApi(AUTH_PATHS.loginVerify),
  userInfo: underApi(AUTH_PATHS.userInfo),
  logout: underApi(AUTH_PATHS.logout),
  passwordReset: underApi(AUTH_PATHS.passwordReset),
  resetPassword: underApi(AUTH_PATHS.resetPassword),
} as const;

function expectUser(path: string, answer: unknown): UserInfo {
  if (!isUserInfo(answer)) throw new UnexpectedAnswerError(path);
  return answer;
}

function isLoginAnswer(answer: unknown): answer is LoginAnswer {
  return loginAnswerSchema.safeParse(answer).success;
}

export function createAuthApi(http: HttpClient): AuthApi {
  return {
    async fetchUserInfo() {
      return expectUser(PATHS.userInfo, await http.get<unknown>(PATHS.userInfo));
    },
    async refreshSession() {
      await http.refreshSession();
    },
    async logout() {
      await http.post<unknown>(PATHS.logout);
    },
    async signup(request) {
      return expectUser(PATHS.signup, await http.post<unknown>(PATHS.signup, request));
    },
    async verifyEmail(request) {
      await http.post<unknown>(PATHS.verifyEmail, request);
    },
    async resendVerification() {
      const answer = await http.post<unknown>(PATHS.resendVerification);
      const message = (answer as { message?: unknown } | undefined)?.message;
      if (typeof message !== 'string') throw new UnexpectedAnswerError(PATHS.resendVerification);
      return message;
    },
    async completeSignup(request) {
      return expectUser(PATHS.completeSignup, await http.post<unknown>(PATHS.completeSignup, request));
    },
    async login(request) {
      const answer = await http.post<unknown>(PATHS.login, request);
      if (!isLoginAnswer(answer)) throw new UnexpectedAnswerError(PATHS.login);
      return answer;
    },
    async verifyLogin(request) {
      return expectUser(PATHS.loginVerify, await http.post<unknown>(PATHS.loginVerify, request));
    },
    async requestPasswordReset(request) {
      await http.post<unknown>(PATHS.passwordReset, request);
    },
    async resetPassword(request) {
      await http.post<unknown>(PATHS.resetPassword, request);
    },
  };
}

/** The app's identity calls, on the app's one HTTP client (so they share its Bearer token and refresh). */
export const authApi = createAuthApi(httpClient);
