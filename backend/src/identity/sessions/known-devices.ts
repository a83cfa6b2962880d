import { Inject, Injectable } from '@nestjs/common';
import { DATABASE, type Db } from '../../platform/database/database.js';
import { hashSecret, newSecret } from './secrets.js';

/**
 * Browsers an account has signed in from (OWASP's "device cookies"): failed logins from a known device count
 * against that device only, so an attacker's failures from elsewhere lock out strangers, not the owner at home.
 */
export const KNOWN_DEVICES_PER_ACCOUNT = 5;

@Injectable()
export class KnownDevices {
  constructor(@Inject(DATABASE) private readonly db: Db) {}

  /** Is this the device token of a browser the account signed in from? */
  async isKnown(userId: string, token: string | undefined): Promise<boolean> {
    if (!token) return false;
    const row = await this.db
      .selectFrom('auth_known_devices')
      .select('user_id')
      .where('token_hash', '=', hashSecret(token))
      .executeTakeFirst();
    return row?.user_id === userId;
  }

  /** After a sign-in: the browser's token, kept when it is already this account's, else a new one. */
  async remember(userId: string, token: string | undefined, now: Date): Promise<string> {
    if (token) {
      const kept = await this.db
        .updateTable('auth_known_devices')
        .set({ last_used_at: now })
        .where('token_hash', '=', hashSecret(token))
        .where('user_id', '=', userId)
        .executeTakeFirst();
      if (kept.numUpdatedRows > 0n) return token;
    }
    const fresh = newSecret();
    await this.db
      .insertInto('auth_known_devices')
      .values({ token_hash: hashSecret(fresh), user_id: userId, created_at: now, last_used_at: now })
      .execute();
    // Each known device is a count of its own: a few per account, the least recently used going first, so nobody
    // collects tokens to multiply their guesses.
    await this.db
      .deleteFrom('auth_known_devices')
      .where('user_id', '=', userId)
      .where(
        'token_hash',
        'not in',
        this.db
          .selectFrom('auth_known_devices')
          .select('token_hash')
          .where('user_id', '=', userId)
          .orderBy('last_used_at', 'desc')
          .limit(KNOWN_DEVICES_PER_ACCOUNT),
      )
      .execute();
    return fresh;
  }

  async forgetAll(userId: string): Promise<void> {
    await this.db.deleteFrom('auth_known_devices').where('user_id', '=', userId).execute();
  }
}
