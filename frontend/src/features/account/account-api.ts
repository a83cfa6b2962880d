import {
  ACCOUNT_PATHS,
  AUTH_PATHS,
  type DeleteAccountRequest,
  type DeleteSessionRequest,
  type DisableTwoFactorRequest,
  type EditAccountAnswer,
  editAccountAnswerSchema,
  type EditAccountRequest,
  type LoginSession,
  loginSessionSchema,
  type PrivacySettingsRequest,
  type UserInfo,
} from '@serendip/proto';
import { API_BASE_PATH, type HttpClient, httpClient } from '../../shared/http/http-client';
import { UnexpectedAnswerError } from '../auth/auth-api';
import { isUserInfo } from '../auth/user-info';

/** The account settings dialog's calls (spec 7), each answer checked against proto before it is trusted. */
export interface AccountApi {
  editAccount(request: EditAccountRequest): Promise<EditAccountAnswer>;
  deleteAccount(request: DeleteAccountRequest): Promise<void>;
  /** POST /user/enable-twofac; the page reloads afterwards, so the answer is not read. */
  enableTwoFactor(): Promise<void>;
  /** POST /user/disable-twofac with the current password (a session alone must not remove the second factor). */
  disableTwoFactor(request: DisableTwoFactorRequest): Promise<void>;
  listSessions(): Promise<LoginSession[]>;
  /** Both answer the refreshed list (spec 7: "list refreshed"). */
  endSession(request: DeleteSessionRequest): Promise<LoginSession[]>;
  endOtherSessions(): Promise<LoginSession[]>;
  /** POST /user/privacy ("hide my IP"); answers the user as now stored. */
  setPrivacy(request: PrivacySettingsRequest): Promise<UserInfo>;
}

/** proto paths carry the /api prefix; the HTTP module adds it itself. */
function underApi(path: string): string {
  if (!path.startsWith(`${API_BASE_PATH}/`)) throw new Error(`${path} is not under ${API_BASE_PATH}`);
  return path.slice(API_BASE_PATH.length);
}

const PATHS = {
  editAccount: underApi(ACCOUNT_PATHS.editAccount),
  deleteAccount: underApi(ACCOUNT_PATHS.deleteAccount),
  enableTwoFactor: underApi(AUTH_PATHS.enableTwoFactor),
  disableTwoFactor: underApi(AUTH_PATHS.disableTwoFactor),
  sessions: underApi(AUTH_PATHS.sessions),
  deleteSession: underApi(AUTH_PATHS.deleteSession),
  deleteOtherSessions: underApi(AUTH_PATHS.deleteOtherSessions),
  privacy: underApi(ACCOUNT_PATHS.privacy),
} as const;

export function isLoginSession(value: unknown): value is LoginSession {
  return loginSessionSchema.safeParse(value).success;
}

export function isEditAccountAnswer(value: unknown): value is EditAccountAnswer {
  return editAccountAnswerSchema.safeParse(value).success;
}

function expectSessions(path: string, answer: unknown): LoginSession[] {
  if (!Array.isArray(answer) || !answer.every(isLoginSession)) throw new UnexpectedAnswerError(path);
  return answer;
}

export function createAccountApi(http: HttpClient): AccountApi {
  return {
    async editAccount(request) {
      const answer = await http.post<unknown>(PATHS.editAccount, request);
      if (!isEditAccountAnswer(answer)) throw new UnexpectedAnswerError(PATHS.editAccount);
      return answer;
    },
    async deleteAccount(request) {
      await http.post<unknown>(PATHS.deleteAccount, request);
    },
    async enableTwoFactor() {
      await http.post<unknown>(PATHS.enableTwoFactor);
    },
    async disableTwoFactor(request) {
      await http.post<unknown>(PATHS.disableTwoFactor, request);
    },
    async listSessions() {
      return expectSessions(PATHS.sessions, await http.get<unknown>(PATHS.sessions));
    },
    async endSession(request) {
      return expectSessions(PATHS.deleteSession, await http.post<unknown>(PATHS.deleteSession, request));
    },
    async endOtherSessions() {
      return expectSessions(PATHS.deleteOtherSessions, await http.post<unknown>(PATHS.deleteOtherSessions));
    },
    async setPrivacy(request) {
      const answer = await http.post<unknown>(PATHS.privacy, request);
      if (!isUserInfo(answer)) throw new UnexpectedAnswerError(PATHS.privacy);
      return answer;
    },
  };
}

/** On the app's one HTTP client, so these share its Bearer token and its refresh on 401. */
export const accountApi = createAccountApi(httpClient);
