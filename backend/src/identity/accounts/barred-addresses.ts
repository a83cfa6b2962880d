import { createHmac, hkdfSync } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import type { Kysely } from 'kysely';
import { DATABASE, type Db } from '../../platform/database/database.js';
import type { Database } from '../../platform/database/schema.js';
import { EVENT_CORE, type EventCore } from '../../platform/event-core/event-core.js';
import { emailKey } from './email-address.js';

/**
 * Ban evasion (spec 1 "Moderation"): the address of a permanently banned account cannot be used again, not even after
 * the account is deleted. Only a keyed hash (HMAC, key derived from the key-encryption key) of the normalised address
 * is kept, per case: the address itself is erased with the account, and the list cannot be read back into addresses.
 */
@Injectable()
export class BarredAddresses {
  private readonly key: Buffer;

  constructor(
    @Inject(DATABASE) private readonly db: Db,
    @Inject(EVENT_CORE) core: EventCore,
  ) {
    this.key = Buffer.from(
      hkdfSync('sha256', core.keyEncryptionKey, Buffer.alloc(0), 'serendip barred address v1', 32),
    );
  }

  /** Bars the account's current address for this case (a permanent ban). */
  async bar(userId: string, caseId: string): Promise<void> {
    const row = await this.db
      .selectFrom('users')
      .select('email_address')
      .where('user_id', '=', userId)
      .executeTakeFirst();
    if (!row?.email_address) return;
    await this.db
      .insertInto('identity_barred_addresses')
      .values({ address_hmac: this.hmac(row.email_address), case_id: caseId })
      .onConflict((c) => c.columns(['address_hmac', 'case_id']).doNothing())
      .execute();
  }

  /** The case's ban ended (lifted, or its appeal approved): its address is free again. */
  async lift(caseId: string): Promise<void> {
    await this.db.deleteFrom('identity_barred_addresses').where('case_id', '=', caseId).execute();
  }

  async isBarred(emailAddress: string, db: Kysely<Database> = this.db): Promise<boolean> {
    const row = await db
      .selectFrom('identity_barred_addresses')
      .select('case_id')
      .where('address_hmac', '=', this.hmac(emailAddress))
      .executeTakeFirst();
    return row !== undefined;
  }

  private hmac(emailAddress: string): string {
    return createHmac('sha256', this.key).update(emailKey(emailAddress)).digest('hex');
  }
}
