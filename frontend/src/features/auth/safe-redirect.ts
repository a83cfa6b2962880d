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

/** spec 2: /auth/login?redirect={encoded current path}. */
export function loginPathFor(location: Pick<Location, 'pathname' | 'search'>): string {
  return `${AUTH_ROUTES.login}?redirect=${encodeURIComponent(`${location.pathname}${location.search}`)}`;
}
