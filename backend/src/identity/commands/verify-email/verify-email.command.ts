import { Inject, Logger } from '@nestjs/common';
import { Command, CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { DomainError, invalidField } from '../../../platform/cqrs/decider.js';
import type { CommandMetadata } from '../../../platform/cqrs/execute-decider.js';
import { DATABASE, type Db } from '../../../platform/database/database.js';
import { Accounts } from '../../accounts/accounts.js';
import { BarredAddresses } from '../../accounts/barred-addresses.js';
import { ACCOUNT_RESTRICTED, AccountStanding } from '../../public/account-standing.js';
import { AddressClaims } from '../../accounts/address-claims.js';
import { emailKey } from '../../accounts/email-address.js';
import { IdentityMails } from '../../mail/identity-mails.js';

export class VerifyEmail extends Command<void> {
  constructor(
    readonly token: string,
    readonly meta: CommandMetadata,
  ) {
    super();
  }
}

/** The e-mailed link of a sign-up (confirms the address) or of an e-mail change (the new address takes over). */
@CommandHandler(VerifyEmail)
export class VerifyEmailHandler implements ICommandHandler<VerifyEmail> {
  private readonly logger = new Logger(VerifyEmailHandler.name);

  constructor(
    @Inject(DATABASE) private readonly db: Db,
    private readonly accounts: Accounts,
    private readonly mails: IdentityMails,
    private readonly claims: AddressClaims,
    private readonly barred: BarredAddresses,
    private readonly standing: AccountStanding,
  ) {}

  async execute({ token, meta }: VerifyEmail): Promise<void> {
    const redeemed = await this.mails.tokens.redeem(token, ['verify-email', 'change-email'], meta.now);
    if (redeemed.purpose === 'change-email' && redeemed.newEmail) {
      await this.switchEmail(redeemed.userId, redeemed.newEmail, meta);
      return;
    }
    await this.holdAddress(redeemed.userId, meta.now);
    await this.accounts.run(redeemed.userId, { type: 'VerifyEmail' }, meta);
  }

  /**
   * A sign-up's address is its own once confirmed: an account that claimed it first but never confirmed it within a
   * day gives it up (its link said so, see SignUp); one that confirmed it, or claimed it less than a day ago, keeps it.
   */
  private async holdAddress(userId: string, now: Date): Promise<void> {
    const { emailAddress } = await this.accounts.userInfo(userId, now);
    const key = emailKey(emailAddress);
    if (await this.barred.isBarred(emailAddress)) throw addressBarred();
    await this.db.transaction().execute(async (trx) => {
      const standing = await this.claims.standing(trx, userId, emailAddress, now);
      if (standing === 'holder') return;
      if (standing === 'taken') {
        throw invalidField('token', 'this address belongs to another account now', 'address-taken');
      }
      if (standing === 'free') {
        await trx.insertInto('account_emails').values({ email_lower: key, user_id: userId, claimed_at: now }).execute();
        return;
      }
      await trx
        .updateTable('account_emails')
        .set({ user_id: userId, claimed_at: now })
        .where('email_lower', '=', key)
        .execute();
      this.logger.log(`an unconfirmed claim on an address moved to the account that confirmed it (${userId})`);
    });
  }

  /**
   * The new address replaces the old one: claimed first (it may have been taken since the link was sent), then
   * recorded, then the old one freed and told.
   */
  private async switchEmail(userId: string, newEmail: string, meta: CommandMetadata): Promise<void> {
    if (await this.barred.isBarred(newEmail)) throw addressBarred();
    // A banned account keeps its address: a link asked for before the ban must not carry it to a fresh address (which a
    // permanent ban's bar would not cover).
    if (await this.standing.isRestricted(userId, meta.now)) {
      throw new DomainError('account-restricted', ACCOUNT_RESTRICTED, { kind: 'forbidden' });
    }
    const old = await this.db
      .selectFrom('account_emails')
      .select('email_lower')
      .where('user_id', '=', userId)
      .executeTakeFirst();
    try {
      // One address per account: the row moves to the new address (or is made, for an account that never held
      // one), and fails if someone holds that address now.
      if (old) {
        await this.db
          .updateTable('account_emails')
          .set({ email_lower: emailKey(newEmail), claimed_at: meta.now })
          .where('user_id', '=', userId)
          .execute();
      } else {
        await this.db
          .insertInto('account_emails')
          .values({ email_lower: emailKey(newEmail), user_id: userId, claimed_at: meta.now })
          .execute();
      }
    } catch (error) {
      if ((error as { code?: string }).code === '23505') {
        throw invalidField('token', 'this address belongs to another account now', 'address-taken');
      }
      throw error;
    }
    await this.accounts.run(userId, { type: 'ChangeEmail', emailAddress: newEmail }, meta);
    if (old && old.email_lower !== emailKey(newEmail)) await this.mails.emailChanged(old.email_lower, newEmail);
  }
}

/** The address of a permanently banned account (BarredAddresses): it cannot be confirmed for any account. */
const addressBarred = () =>
  invalidField('token', 'this address cannot be used: an account with it was permanently banned', 'address-barred');
