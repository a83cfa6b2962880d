import type { CookieOptions, Request, Response } from 'express';
import { ACCESS_TOKEN_TTL_SECONDS } from '../sessions/access-tokens.js';
import { SESSION_TTL_DAYS } from '../sessions/session-store.js';

/** spec 3: cookies accessToken and refreshToken, path /. HttpOnly and SameSite=Lax; Secure behind https. */
export function setAuthCookies(
  res: Response,
  publicUrl: string,
  tokens: { accessToken: string; refreshToken?: string },
) {
  const base: CookieOptions = { path: '/', httpOnly: true, sameSite: 'lax', secure: publicUrl.startsWith('https:') };
  res.cookie('accessToken', tokens.accessToken, { ...base, maxAge: ACCESS_TOKEN_TTL_SECONDS * 1000 });
  if (tokens.refreshToken)
    res.cookie('refreshToken', tokens.refreshToken, { ...base, maxAge: SESSION_TTL_DAYS * 86_400_000 });
}

export function clearAuthCookies(res: Response) {
  res.clearCookie('accessToken', { path: '/' });
  res.clearCookie('refreshToken', { path: '/' });
}

export function cookie(req: Request, name: string): string | undefined {
  const value = (req.cookies as Record<string, unknown> | undefined)?.[name];
  return typeof value === 'string' && value ? value : undefined;
}
