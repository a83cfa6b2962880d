import { ACCOUNT_PATHS, type EditProfileRequest, type UserInfo } from '@serendip/proto';
import { API_BASE_PATH, type HttpClient, httpClient } from '../../shared/http/http-client';
import { type AuthApi, authApi, UnexpectedAnswerError } from '../auth/auth-api';
import { isUserInfo } from '../auth/user-info';

/** The profile screen's calls (spec 7), each answer checked against the proto contract. */
export interface ProfileApi {
  /** POST /user/edit-profile with only the changed fields; answers the user as now stored. */
  editProfile(request: EditProfileRequest): Promise<UserInfo>;
  /** spec 4 "Geolocation": a manual update saves the place, then user info is loaded again. */
  updateLocation(): Promise<UserInfo>;
}

/** ACCOUNT_PATHS carry the /api prefix; the HTTP module adds it itself. */
function underApi(path: string): string {
  if (!path.startsWith(`${API_BASE_PATH}/`)) throw new Error(`${path} is not under ${API_BASE_PATH}`);
  return path.slice(API_BASE_PATH.length);
}

const PATHS = {
  editProfile: underApi(ACCOUNT_PATHS.editProfile),
  geolocation: underApi(ACCOUNT_PATHS.geolocation),
} as const;

export function createProfileApi(http: HttpClient, auth: Pick<AuthApi, 'fetchUserInfo'>): ProfileApi {
  return {
    async editProfile(request) {
      const answer = await http.post<unknown>(PATHS.editProfile, request);
      if (!isUserInfo(answer)) throw new UnexpectedAnswerError(PATHS.editProfile);
      return answer;
    },
    async updateLocation() {
      // No body: the server finds the place from the request's own address (GeolocationAnswer).
      await http.post<unknown>(PATHS.geolocation);
      return auth.fetchUserInfo();
    },
  };
}

export const profileApi = createProfileApi(httpClient, authApi);
