import {
  type CanActivate,
  createParamDecorator,
  type ExecutionContext,
  ForbiddenException,
  Injectable,
  UnauthorizedException,
} from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { v5 as uuidv5 } from 'uuid';
import type { Request } from 'express';
import { Reflector } from '@nestjs/core';
import type { CommandMetadata } from '../../platform/cqrs/execute-decider.js';
import type { AccessClaims } from '../sessions/access-tokens.js';
import { ACCOUNT_RESTRICTED, ALLOWED_WHILE_RESTRICTED, AccountStanding } from './account-standing.js';
import { SessionResolver } from './session-resolver.js';
import { UserDirectory } from './user-directory.js';

export type AuthenticatedRequest = Request & { auth: AccessClaims };

/** spec 8: what a guest hears on a signed-in route. */
export const SIGN_IN_FIRST = 'Unauthorized, Please Log In.';

/** spec 8: what a client whose session ended hears (its sockets are closed after it). */
export const SESSION_EXPIRED = 'Session Expired, Please Log In.';

/** What the other tabs and windows of a browser hear when the person logged out in one of them. */
export const LOGGED_OUT_ELSEWHERE = 'You logged out in another tab or window.';

/** spec 8: what every device of a deleted account hears. */
export const ACCOUNT_DELETED = 'Account deleted successfully';

/**
 * Signed-in routes: a live session of the token's user (SessionResolver), else 401; and an account not under a ban, else
 * 403, unless the route is one the banned screen needs (@AllowedWhileRestricted).
 */
@Injectable()
export class AuthGuard implements CanActivate {
  constructor(
    private readonly sessions: SessionResolver,
    private readonly standing: AccountStanding,
    private readonly reflector: Reflector,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const req = context.switchToHttp().getRequest<AuthenticatedRequest>();
    const claims = await this.sessions.resolve(req);
    if (!claims) throw new UnauthorizedException(SIGN_IN_FIRST);
    req.auth = claims;
    const allowed = this.reflector.getAllAndOverride<boolean>(ALLOWED_WHILE_RESTRICTED, [
      context.getHandler(),
      context.getClass(),
    ]);
    if (!allowed && (await this.standing.isRestricted(claims.userId, new Date()))) {
      throw new ForbiddenException(ACCOUNT_RESTRICTED);
    }
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
 * Dashboard routes (spec 6 Admin): signed in (401), then staff, a moderator or an admin (403). Routes only an admin
 * may use (permanent bans, granting roles) take AdminGuard instead.
 */
@Injectable()
export class StaffGuard implements CanActivate {
  constructor(
    private readonly auth: AuthGuard,
    private readonly users: UserDirectory,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    await this.auth.canActivate(context);
    const req = context.switchToHttp().getRequest<AuthenticatedRequest>();
    if (!(await this.users.isAdmin(req.auth.userId))) throw new ForbiddenException('Only staff may do that');
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
  const actor = req.auth?.userId ?? 'anonymous';
  const key = req.headers['idempotency-key'];
  // The key is the caller's, for one route: scoped to both, it can only ever repeat the caller's own request, never
  // match a command someone else (or the server itself) ran on the same stream.
  const commandId =
    typeof key === 'string' && /^[A-Za-z0-9-]{8,100}$/.test(key)
      ? uuidv5(`${actor}:${req.method} ${routeOf(req)}:${key}`, IDEMPOTENCY_NAMESPACE)
      : randomUUID();
  return { commandId, correlationId: randomUUID(), actor, now: new Date() };
}

const IDEMPOTENCY_NAMESPACE = '3d0f7c52-9a1e-4b8c-a6d4-5e2f1b7c9a03';

/** The route's pattern (`/api/user/edit-profile`), not the URL: the same request to the same route. */
function routeOf(req: Request): string {
  const pattern = (req.route as { path?: unknown } | undefined)?.path;
  return typeof pattern === 'string' ? pattern : req.path;
}
