import { type CanActivate, type ExecutionContext, Inject, Injectable, UnauthorizedException } from '@nestjs/common';
import type { Request } from 'express';
import { IdentityService, IDENTITY_TOKENS } from '../accounts/identity.service.js';
import type { AccessClaims, AccessTokens } from '../sessions/access-tokens.js';
import { cookie } from './auth-cookies.js';

export type AuthenticatedRequest = Request & { auth: AccessClaims };

/**
 * Signed-in routes: a valid access token (Bearer header or accessToken cookie) of a session that has not
 * ended (logout, theft, password reset end sessions before their tokens expire).
 */
@Injectable()
export class AuthGuard implements CanActivate {
  constructor(
    @Inject(IDENTITY_TOKENS) private readonly tokens: AccessTokens,
    private readonly identity: IdentityService,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const req = context.switchToHttp().getRequest<AuthenticatedRequest>();
    const header = req.headers.authorization;
    const token = header?.startsWith('Bearer ') ? header.slice(7) : cookie(req, 'accessToken');
    const claims = token ? await this.tokens.verify(token) : undefined;
    if (!claims || !(await this.identity.isSessionActive(claims.sessionId, new Date()))) {
      throw new UnauthorizedException('Unauthorized, Please Log In.');
    }
    req.auth = claims;
    return true;
  }
}
