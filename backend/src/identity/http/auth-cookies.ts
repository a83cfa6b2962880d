import type { CookieOptions, Request, Response } from 'express';
import { ACCESS_TOKEN_TTL_SECONDS } from '../sessions/access-tokens.js';
import {
  type AuthCookieNames,
  authCookieNames,
  DEVICE_COOKIE_PATH,
  REFRESH_COOKIE_PATH,
} from '../sessions/auth-cookies.js';
import { SESSION_TTL_DAYS } from '../sessions/session-store.js';

/**
 * spec 3 "Session cookies": HttpOnly and SameSite=Lax, Secure (and prefixed) behind https. The access token lives
 * here only, never in an answer a script could read; the refresh token is sent to the refresh route only.
 */
export function setAuthCookies(
  res: Response,
  publicUrl: string,
  tokens: { accessToken: string; refreshToken?: string; deviceToken?: string },
) {
  const names = authCookieNames(publicUrl);
  const base: CookieOptions = { httpOnly: true, sameSite: 'lax', secure: names.secure };
  clearLegacyCookies(res, names);
  res.cookie(names.access, tokens.accessToken, { ...base, path: '/', maxAge: ACCESS_TOKEN_TTL_SECONDS * 1000 });
  if (tokens.refreshToken)
    res.cookie(names.refresh, tokens.refreshToken, {
      ...base,
      path: REFRESH_COOKIE_PATH,
      maxAge: SESSION_TTL_DAYS * 86_400_000,
    });
  // Outlives sessions and logouts: it is what tells the owner's browser from an attacker's (browsers cap it at 400 days).
  if (tokens.deviceToken)
    res.cookie(names.device, tokens.deviceToken, { ...base, path: DEVICE_COOKIE_PATH, maxAge: 400 * 86_400_000 });
}

export function clearAuthCookies(res: Response, publicUrl: string) {
  const names = authCookieNames(publicUrl);
  const base: CookieOptions = { httpOnly: true, sameSite: 'lax', secure: names.secure };
  clearLegacyCookies(res, names);
  res.clearCookie(names.access, { ...base, path: '/' });
  res.clearCookie(names.refresh, { ...base, path: REFRESH_COOKIE_PATH });
}

/**
 * What browsers may still hold from before: the refresh token at path / (sent with every request), and under https
 * the cookies without their prefixes. Cleared before the new ones are set.
 */
function clearLegacyCookies(res: Response, names: AuthCookieNames) {
  const base: CookieOptions = { httpOnly: true, sameSite: 'lax', secure: names.secure };
  res.clearCookie(names.refresh, { ...base, path: '/' });
  if (names.secure) {
    res.clearCookie('accessToken', { ...base, path: '/' });
    res.clearCookie('refreshToken', { ...base, path: '/' });
  }
}

export function refreshCookie(req: Request, publicUrl: string): string | undefined {
  return cookieValue(req, authCookieNames(publicUrl).refresh);
}

export function deviceCookie(req: Request, publicUrl: string): string | undefined {
  return cookieValue(req, authCookieNames(publicUrl).device);
}

function cookieValue(req: Request, name: string): string | undefined {
  const value = (req.cookies as Record<string, unknown> | undefined)?.[name];
  return typeof value === 'string' && value ? value : undefined;
}
