import {
  type CanActivate,
  createParamDecorator,
  type ExecutionContext,
  ForbiddenException,
  Injectable,
  UnauthorizedException,
} from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import type { Request } from 'express';
import type { CommandMetadata } from '../../platform/cqrs/execute-decider.js';
import type { AccessClaims } from '../sessions/access-tokens.js';
import { SessionResolver } from './session-resolver.js';
import { UserDirectory } from './user-directory.js';

export type AuthenticatedRequest = Request & { auth: AccessClaims };

/** spec 8: what a guest hears on a signed-in route. */
export const SIGN_IN_FIRST = 'Unauthorized, Please Log In.';

/** Signed-in routes: a live session of the token's user (SessionResolver), else 401. */
@Injectable()
export class AuthGuard implements CanActivate {
  constructor(private readonly sessions: SessionResolver) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const req = context.switchToHttp().getRequest<AuthenticatedRequest>();
    const claims = await this.sessions.resolve(req);
    if (!claims) throw new UnauthorizedException(SIGN_IN_FIRST);
    req.auth = claims;
    return true;
  }
}

/**
 * Admin routes: signed in (401 otherwise), then an admin (403 otherwise). Guards run before pipes, so the role is
 * settled before any body is validated: a non-admin learns nothing about what a route expects.
 */
@Injectable()
export class AdminGuard implements CanActivate {
  constructor(
    private readonly auth: AuthGuard,
    private readonly users: UserDirectory,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    await this.auth.canActivate(context);
    const req = context.switchToHttp().getRequest<AuthenticatedRequest>();
    if (!(await this.users.isAdmin(req.auth.userId))) throw new ForbiddenException('Only admins may do that');
    return true;
  }
}

/**
 * The metadata of the command a request carries (DESIGN.md "The write side"): an Idempotency-Key header makes a retry of
 * the same intent a no-op; the actor is the signed-in user, or 'anonymous' on open routes.
 */
export const CommandMeta = createParamDecorator((_data: unknown, context: ExecutionContext): CommandMetadata =>
  commandMetaOf(context.switchToHttp().getRequest()),
);

export function commandMetaOf(req: Request & { auth?: AccessClaims }): CommandMetadata {
  const key = req.headers['idempotency-key'];
  const commandId = typeof key === 'string' && /^[A-Za-z0-9-]{8,100}$/.test(key) ? key : randomUUID();
  return { commandId, correlationId: randomUUID(), actor: req.auth?.userId ?? 'anonymous', now: new Date() };
}
