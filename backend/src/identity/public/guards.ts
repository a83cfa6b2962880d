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
import type { Role } from '@serendip/proto';
import { Reflector } from '@nestjs/core';
import type { CommandMetadata } from '../../platform/cqrs/execute-decider.js';
import type { AccessClaims } from '../sessions/access-tokens.js';
import { ACCOUNT_RESTRICTED, ALLOWED_WHILE_RESTRICTED, AccountStanding } from './account-standing.js';
import { SessionResolver } from './session-resolver.js';
import { staffRefusal, UserDirectory } from './user-directory.js';

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
 * The dashboard's gate (spec 6 Admin): signed in and not banned (401, 403), then one of `roles` (403), then two-factor
 * login on and this session started with the mailed code (403: staff hold power over people, so a stolen password
 * alone must not reach the dashboard, even after its thief turns two-factor on). Guards run before pipes, so
 * this is settled before any body is validated: a caller who may not use the route learns nothing about what it
 * expects.
 */
async function admitStaff(
  auth: AuthGuard,
  users: UserDirectory,
  context: ExecutionContext,
  roles: readonly Role[],
  notInRole: string,
): Promise<boolean> {
  await auth.canActivate(context);
  const req = context.switchToHttp().getRequest<AuthenticatedRequest>();
  const access = await users.staffAccess(req.auth.userId);
  if (!roles.includes(access.role)) throw new ForbiddenException(notInRole);
  const refusal = staffRefusal(access, req.auth);
  if (refusal) throw new ForbiddenException(refusal);
  return true;
}

/** Routes only an admin may use: permanent bans, granting roles, logs, media and snapshots. */
@Injectable()
export class AdminGuard implements CanActivate {
  constructor(
    private readonly auth: AuthGuard,
    private readonly users: UserDirectory,
  ) {}

  canActivate(context: ExecutionContext): Promise<boolean> {
    return admitStaff(this.auth, this.users, context, ['admin'], 'Only admins may do that');
  }
}

/** Dashboard routes moderators may use too (reports, appeals, bans of up to 30 days); admins always may. */
@Injectable()
export class StaffGuard implements CanActivate {
  constructor(
    private readonly auth: AuthGuard,
    private readonly users: UserDirectory,
  ) {}

  canActivate(context: ExecutionContext): Promise<boolean> {
    return admitStaff(this.auth, this.users, context, ['moderator', 'admin'], 'Only staff may do that');
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
