import { Inject, Injectable } from '@nestjs/common';
import { CODE_SESSION_FOR_DASHBOARD, type Role, TWO_FACTOR_FOR_DASHBOARD, type UserInfo } from '@serendip/proto';
import { DATABASE, type Db } from '../../platform/database/database.js';
import { readUserInfo, toIsoDate } from '../accounts/user-info.js';
import type { AccessClaims } from '../sessions/access-tokens.js';
import { AccountStanding } from './account-standing.js';
import { isUuid } from '../../platform/shared/ids.js';
import { ageOn } from '../domain/account.decider.js';

/** A person as the feed names them next to what they wrote: nothing more. */
export interface PublicAuthor {
  firstName: string;
  avatar: string | null;
  isAdmin: boolean;
}

/** Another user's public profile (the feed's peer page): what anyone signed in may see of them. */
export interface PublicProfile extends PublicAuthor {
  age?: number;
  country?: string;
  bio: string;
}

/** What other contexts may read about a user (over the `users` read model): never hashes, tokens or secrets. */
@Injectable()
export class UserDirectory {
  constructor(
    @Inject(DATABASE) private readonly db: Db,
    private readonly standing: AccountStanding,
  ) {}

  /**
   * The user as they see themselves (spec 3 UserInfo): what matching needs to admit and pair them. Undefined for an
   * unknown or deleted account. Never send it to another user: `partnerUser` is built from it field by field.
   */
  async userInfo(userId: string, now = new Date()): Promise<UserInfo | undefined> {
    if (!isUuid(userId)) return undefined;
    return readUserInfo(this.db, this.standing, userId, now);
  }

  /** When a live account was made (notifications: announcements to everyone from then on); undefined for none. */
  async registeredAt(userId: string): Promise<Date | undefined> {
    if (!isUuid(userId)) return undefined;
    const row = await this.db
      .selectFrom('users')
      .select('registered_at')
      .where('user_id', '=', userId)
      .where('deleted_at', 'is', null)
      .executeTakeFirst();
    return row?.registered_at;
  }

  /** Whether a ban is on the account now (the restriction screen replaces the app). */
  async isRestricted(userId: string, now = new Date()): Promise<boolean> {
    return this.standing.isRestricted(userId, now);
  }

  async isAdmin(userId: string): Promise<boolean> {
    return (await this.roleOf(userId)) === 'admin';
  }

  /** spec 6 Admin: 'moderator' and 'admin' reach the dashboard; 'user' for anyone else, unknown and deleted too. */
  async roleOf(userId: string): Promise<Role> {
    return (await this.staffAccess(userId)).role;
  }

  /** What the dashboard's guards decide on: the role, and whether sign-in asks for the mailed code. */
  async staffAccess(userId: string): Promise<{ role: Role; twoFactorEnabled: boolean }> {
    if (!isUuid(userId)) return NOBODY;
    const row = await this.db
      .selectFrom('users')
      .select(['role', 'two_factor_enabled', 'deleted_at'])
      .where('user_id', '=', userId)
      .executeTakeFirst();
    if (!row || row.deleted_at) return NOBODY;
    return { role: row.role, twoFactorEnabled: row.two_factor_enabled };
  }

  /**
   * The staff role this session acts with (spec 6 Admin), 'user' for none: a staff role, two-factor login on, a session
   * started with the mailed code, and no ban on the account. What the system socket's staff pushes and other
   * staff-or-self routes go by; the dashboard's guards decide the same way (`staffRefusal`).
   */
  async staffRoleOf(claims: AccessClaims, now = new Date()): Promise<Role> {
    const access = await this.staffAccess(claims.userId);
    if (access.role === 'user' || staffRefusal(access, claims)) return 'user';
    return (await this.standing.isRestricted(claims.userId, now)) ? 'user' : access.role;
  }

  /** Live accounts' public names and pictures, in one query (a feed page names up to a few dozen people). */
  async publicAuthors(userIds: readonly string[]): Promise<Map<string, PublicAuthor>> {
    const ids = [...new Set(userIds.filter(isUuid))];
    const authors = new Map<string, PublicAuthor>();
    if (ids.length === 0) return authors;
    const rows = await this.db
      .selectFrom('users')
      .select(['user_id', 'first_name', 'avatar_url', 'role'])
      .where('user_id', 'in', ids)
      .where('deleted_at', 'is', null)
      .execute();
    for (const row of rows)
      authors.set(row.user_id, {
        firstName: row.first_name ?? '',
        avatar: row.avatar_url,
        isAdmin: row.role === 'admin',
      });
    return authors;
  }

  /** A live account's public profile; undefined for an unknown or deleted one. */
  async publicProfile(userId: string, now = new Date()): Promise<PublicProfile | undefined> {
    if (!isUuid(userId)) return undefined;
    const row = await this.db
      .selectFrom('users')
      .select(['first_name', 'avatar_url', 'role', 'birth_date', 'country', 'bio'])
      .where('user_id', '=', userId)
      .where('deleted_at', 'is', null)
      .executeTakeFirst();
    if (!row) return undefined;
    return {
      firstName: row.first_name ?? '',
      avatar: row.avatar_url,
      isAdmin: row.role === 'admin',
      ...(row.birth_date ? { age: ageOn(toIsoDate(row.birth_date), now) } : {}),
      ...(row.country ? { country: row.country.toLowerCase() } : {}),
      bio: row.bio ?? '',
    };
  }

  /**
   * First names for a list of ids in one query (the dashboard's tables name many people per page): live accounts
   * only, so an unknown or deleted one is missing from the answer (it shows as erased).
   */
  async firstNames(userIds: readonly string[]): Promise<Map<string, string | null>> {
    const ids = [...new Set(userIds.filter(isUuid))];
    const names = new Map<string, string | null>();
    if (ids.length === 0) return names;
    const rows = await this.db
      .selectFrom('users')
      .select(['user_id', 'first_name'])
      .where('user_id', 'in', ids)
      .where('deleted_at', 'is', null)
      .execute();
    for (const row of rows) names.set(row.user_id, row.first_name);
    return names;
  }
}

const NOBODY = { role: 'user', twoFactorEnabled: false } as const;

/**
 * Why a staff member's session may not use the dashboard, or undefined when it may (spec 6 Admin): two-factor login must
 * be on, and this session must have been started with the mailed code, so that a stolen password alone (even one used
 * to turn two-factor on) never reaches it.
 */
export function staffRefusal(
  access: { twoFactorEnabled: boolean },
  claims: Pick<AccessClaims, 'signedInWithCode'>,
): string | undefined {
  if (!access.twoFactorEnabled) return TWO_FACTOR_FOR_DASHBOARD;
  if (!claims.signedInWithCode) return CODE_SESSION_FOR_DASHBOARD;
  return undefined;
}
