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
}
