import { Inject, Injectable } from '@nestjs/common';
import { AccountStanding } from '../../../identity/public/index.js';
import { DATABASE, type Db } from '../../../platform/database/database.js';

/**
 * identity's AccountStanding, answered from the bans read model: a ban is on until it ends, or until its expiry passes
 * (the scheduled check records BanExpired within seconds; nobody stays locked out meanwhile).
 */
@Injectable()
export class BanStanding extends AccountStanding {
  constructor(@Inject(DATABASE) private readonly db: Db) {
    super();
  }

  async isRestricted(userId: string, now: Date): Promise<boolean> {
    const row = await this.db
      .selectFrom('moderation_bans')
      .select('case_id')
      .where('user_id', '=', userId)
      .where('ended_at', 'is', null)
      .where((eb) => eb.or([eb('expires_at', 'is', null), eb('expires_at', '>', now)]))
      .executeTakeFirst();
    return row !== undefined;
  }
}
