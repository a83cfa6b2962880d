import { Inject } from '@nestjs/common';
import { Command, CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import type { CommandMetadata } from '../../../platform/cqrs/execute-decider.js';
import { DATABASE, type Db } from '../../../platform/database/database.js';
import { LIMITS, RATE_LIMITS, type RateLimits } from '../../../platform/http/rate-limits.js';
import { maskEmail } from '../../../platform/mail/mail-address.js';
import { Accounts } from '../../accounts/accounts.js';
import { AddressClaims } from '../../accounts/address-claims.js';
import { IdentityMails } from '../../mail/identity-mails.js';

export class ResendVerification extends Command<{ message: string }> {
  constructor(
    readonly userId: string,
    readonly meta: CommandMetadata,
  ) {
    super();
  }
}

/**
 * A new sign-up link for the signed-in account (the first lasts 24 hours, and matching waits for it): to the address
 * the account holds, a few times an hour at most.
 */
@CommandHandler(ResendVerification)
export class ResendVerificationHandler implements ICommandHandler<ResendVerification> {
  constructor(
    @Inject(DATABASE) private readonly db: Db,
    @Inject(RATE_LIMITS) private readonly limits: RateLimits,
    private readonly accounts: Accounts,
    private readonly mails: IdentityMails,
    private readonly claims: AddressClaims,
  ) {}

  async execute({ userId, meta }: ResendVerification): Promise<{ message: string }> {
    const user = await this.accounts.userInfo(userId, meta.now);
    if (user.emailVerified) return { message: 'Your e-mail address is already confirmed.' };
    await this.limits.take(LIMITS.verificationLinksPerAccount, userId);
    // Only a link that can work is sent, and by the rules sign-up follows: none while another account holds the
    // address (the answer is the same, as sign-up's is: it says nothing about other accounts).
    const standing = await this.claims.standing(this.db, userId, user.emailAddress, meta.now);
    if (standing !== 'taken') {
      await this.mails.verification(userId, user.emailAddress, meta.now, { takesOver: standing === 'open' });
    }
    return {
      message: `A new link is on its way to ${maskEmail(user.emailAddress, '•••')}, unless another account holds that address. It lasts 24 hours.`,
    };
  }
}
