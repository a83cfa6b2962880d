import { Inject } from '@nestjs/common';
import { Command, CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import type { CommandMetadata } from '../../../platform/cqrs/execute-decider.js';
import { DATABASE, type Db } from '../../../platform/database/database.js';
import { LIMITS, RATE_LIMITS, type RateLimits } from '../../../platform/http/rate-limits.js';
import { maskEmail } from '../../../platform/mail/mail-address.js';
import { Accounts } from '../../accounts/accounts.js';
import { AddressClaims } from '../../accounts/address-claims.js';
import { IdentityMails } from '../../mail/identity-mails.js';

export const ADDRESS_HELD_ELSEWHERE =
  'Another account holds this e-mail address for now, so it cannot be confirmed for this one. Try again tomorrow, or change the address in Settings.';

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
    // Only a link that can work is sent, by the rules sign-up follows: none while another account holds the address.
    // Saying so tells this account only what its sign-up already told the address's owner by e-mail.
    const standing = await this.claims.standing(this.db, userId, user.emailAddress, meta.now);
    if (standing === 'taken') return { message: ADDRESS_HELD_ELSEWHERE };
    await this.mails.verification(userId, user.emailAddress, meta.now, { takesOver: standing === 'open' });
    return { message: `We sent a new link to ${maskEmail(user.emailAddress, '•••')}. It lasts 24 hours.` };
  }
}
