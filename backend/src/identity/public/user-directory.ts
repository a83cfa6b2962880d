import { Inject, Injectable } from '@nestjs/common';
import type { UserInfo } from '@serendip/proto';
import { DATABASE, type Db } from '../../platform/database/database.js';
import { readUserInfo } from '../accounts/user-info.js';
import { AccountStanding } from './account-standing.js';
import { isUuid } from '../../platform/shared/ids.js';

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

  async isAdmin(userId: string): Promise<boolean> {
    if (!isUuid(userId)) return false;
    const row = await this.db
      .selectFrom('users')
      .select(['is_admin', 'deleted_at'])
      .where('user_id', '=', userId)
      .executeTakeFirst();
    return !!row && row.is_admin && !row.deleted_at;
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
