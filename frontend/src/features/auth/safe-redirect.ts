import type { SessionEndCode } from '@serendip/proto';
import type { Location } from 'react-router';
import { AUTH_ROUTES } from './auth-routes';

const SAME_SITE_BASE = 'https://serendip.invalid';

/**
 * Where to go after login: the `redirect` parameter only when it is a path on this site, else `fallback`. No open
 * redirect: `//host` and `/\host` (browsers read the backslash as a slash) leave the site, and URL parsers drop tabs
 * and newlines, so `/\t/host` would become `//host`; a scheme (`https:`, `javascript:`) never starts with '/'.
 */
export function safeRedirectTarget(raw: string | null | undefined, fallback = '/'): string {
  if (!raw || !raw.startsWith('/') || raw.startsWith('//')) return fallback;
  for (const char of raw) {
    const code = char.charCodeAt(0);
    if (char === '\\' || code < 0x20 || code === 0x7f) return fallback;
  }
  try {
    const url = new URL(raw, SAME_SITE_BASE);
    if (url.origin !== SAME_SITE_BASE) return fallback;
    return `${url.pathname}${url.search}${url.hash}`;
  } catch {
    return fallback;
  }
}

/** Why the login page is shown after the server ended the session (it says so once, as a toast). */
export type LoginReason = SessionEndCode;

/** The login page after the server ended the session: the reason to show, and the page to come back to. */
export function loginPathAfterEnd(currentPath: string, reason: LoginReason): string {
  const back = safeRedirectTarget(currentPath, '/');
  const redirect = back.startsWith(AUTH_ROUTES.login) ? '' : `&redirect=${encodeURIComponent(back)}`;
  return `${AUTH_ROUTES.login}?reason=${reason}${redirect}`;
}

/** spec 2: /auth/login?redirect={encoded current path}. */
export function loginPathFor(location: Pick<Location, 'pathname' | 'search'>): string {
  return `${AUTH_ROUTES.login}?redirect=${encodeURIComponent(`${location.pathname}${location.search}`)}`;
}
