import { API_PREFIX } from '@serendip/proto';

/**
 * The session cookies (spec 3 "Session cookies": accessToken and refreshToken). Under https they carry the browser's
 * prefixes: `__Host-` (Secure, path /, no Domain) so another host of the domain cannot plant an access token
 * (cookie tossing), `__Secure-` for the refresh token, whose narrower path rules out `__Host-`.
 */
export interface AuthCookieNames {
  access: string;
  refresh: string;
  /** Marks a browser the account signed in from (`KnownDevices`); sent to the sign-in routes only. */
  device: string;
  secure: boolean;
}

export function authCookieNames(publicUrl: string): AuthCookieNames {
  const secure = publicUrl.startsWith('https:');
  return secure
    ? { access: '__Host-accessToken', refresh: '__Secure-refreshToken', device: '__Secure-device', secure }
    : { access: 'accessToken', refresh: 'refreshToken', device: 'device', secure };
}

/** The refresh token goes to the one route that trades it, not with every request (a deviation from spec 3's path /). */
export const REFRESH_COOKIE_PATH = `/${API_PREFIX}/auth/refresh-token`;
export const DEVICE_COOKIE_PATH = `/${API_PREFIX}/auth`;
