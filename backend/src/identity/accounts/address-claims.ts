import { Injectable } from '@nestjs/common';
import type { Kysely } from 'kysely';
import type { Database } from '../../platform/database/schema.js';
import { Accounts, emailConfirmed } from './accounts.js';
import { emailKey } from './email-address.js';

/** How long a sign-up holds an address it never confirmed against others who want it (admin squatting, spec 1). */
export const UNCONFIRMED_CLAIM_MS = 24 * 3_600_000;

/**
 * Where an account stands with the address it signed up with (account_emails makes addresses unique):
 * `holder` — it holds the address; `free` — nobody does; `open` — an account that never confirmed it has held it for
 * a day or more, so whoever confirms it first takes it; `taken` — another account confirmed it, or claimed it less
 * than a day ago.
 */
export type AddressStanding = 'holder' | 'free' | 'open' | 'taken';

@Injectable()
export class AddressClaims {
  constructor(private readonly accounts: Accounts) {}

  /** Read with `db` (a transaction's, to decide and move the claim in one step). */
  async standing(db: Kysely<Database>, userId: string, emailAddress: string, now: Date): Promise<AddressStanding> {
    const holder = await db
      .selectFrom('account_emails')
      .select(['user_id', 'claimed_at'])
      .where('email_lower', '=', emailKey(emailAddress))
      .forUpdate()
      .executeTakeFirst();
    if (!holder) return 'free';
    if (holder.user_id === userId) return 'holder';
    if (now.getTime() - holder.claimed_at.getTime() < UNCONFIRMED_CLAIM_MS) return 'taken';
    return emailConfirmed(await this.accounts.history(holder.user_id)) ? 'taken' : 'open';
  }
}
