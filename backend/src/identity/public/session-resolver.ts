import { Inject, Injectable } from '@nestjs/common';
import { parse as parseCookies } from 'cookie';
import type { Config } from '../../config/config.js';
import { CONFIG } from '../../config/config.token.js';
import { DATABASE, type Db } from '../../platform/database/database.js';
import { type AccessClaims, AccessTokens } from '../sessions/access-tokens.js';
import { authCookieNames } from '../sessions/auth-cookies.js';

export const ACCESS_TOKENS = Symbol('ACCESS_TOKENS');

/** What carries a token: an HTTP request, or a socket's handshake (its headers, and `auth` for non-browser clients). */
export interface TokenCarrier {
  headers: Record<string, string | string[] | undefined>;
  auth?: unknown;
}

/**
 * The one answer to "who is calling?" (spec 3 "Session cookies"): for the HTTP guard, every socket handshake and the tus
 * upload hook alike. A caller is signed in while the access token verifies AND its session is still active AND that
 * session is the token's user's: logout, "end this session", a password reset or theft detection end a session
 * before its tokens expire, and a token naming someone else's session is forged.
 */
@Injectable()
export class SessionResolver {
  private readonly cookieName: string;

  constructor(
    @Inject(ACCESS_TOKENS) private readonly tokens: AccessTokens,
    @Inject(DATABASE) private readonly db: Db,
    @Inject(CONFIG) config: Config,
  ) {
    this.cookieName = authCookieNames(config.publicUrl).access;
  }

  /** The caller's session, or undefined for a guest (no token, a bad one, or an ended session). */
  async resolve(carrier: TokenCarrier, now = new Date()): Promise<AccessClaims | undefined> {
    const token = accessTokenOf(carrier, this.cookieName);
    const claims = token ? await this.tokens.verify(token) : undefined;
    const row = claims && (await this.activeRow(claims, now));
    // Started with the code only if both the token and the session's row say so (the row is read here anyway).
    return claims && row
      ? { ...claims, signedInWithCode: claims.signedInWithCode && row.signed_in_with_code }
      : undefined;
  }

  /** Is this session still open, and the token's user's own? */
  async isActive(claims: Pick<AccessClaims, 'userId' | 'sessionId'>, now = new Date()): Promise<boolean> {
    return !!(await this.activeRow(claims, now));
  }

  private async activeRow(claims: Pick<AccessClaims, 'userId' | 'sessionId'>, now: Date) {
    const row = await this.db
      .selectFrom('auth_sessions')
      .select(['user_id', 'ended_at', 'expires_at', 'signed_in_with_code'])
      .where('session_id', '=', claims.sessionId)
      .executeTakeFirst();
    return row && row.user_id === claims.userId && !row.ended_at && row.expires_at > now ? row : undefined;
  }
}

/**
 * A Bearer header first (API clients), then a socket's `auth.token`, then the HttpOnly access-token cookie by its one
 * name (under https only the `__Host-` one: a plain cookie may have been planted by another host of the domain).
 */
function accessTokenOf(carrier: TokenCarrier, cookieName: string): string | undefined {
  const header = carrier.headers.authorization;
  if (typeof header === 'string' && header.startsWith('Bearer ')) return header.slice(7) || undefined;
  const fromAuth = (carrier.auth as { token?: unknown } | undefined)?.token;
  if (typeof fromAuth === 'string' && fromAuth) return fromAuth;
  const cookieHeader = carrier.headers.cookie;
  if (typeof cookieHeader !== 'string') return undefined;
  return parseCookies(cookieHeader)[cookieName] || undefined;
}
