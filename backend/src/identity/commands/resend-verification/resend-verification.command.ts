import { Inject } from '@nestjs/common';
import { Command, CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import type { CommandMetadata } from '../../../platform/cqrs/execute-decider.js';
import { LIMITS, RATE_LIMITS, type RateLimits } from '../../../platform/http/rate-limits.js';
import { maskEmail } from '../../../platform/mail/mail-address.js';
import { Accounts } from '../../accounts/accounts.js';
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
    @Inject(RATE_LIMITS) private readonly limits: RateLimits,
    private readonly accounts: Accounts,
    private readonly mails: IdentityMails,
  ) {}

  async execute({ userId, meta }: ResendVerification): Promise<{ message: string }> {
    const user = await this.accounts.userInfo(userId, meta.now);
    if (user.emailVerified) return { message: 'Your e-mail address is already confirmed.' };
    await this.limits.take(LIMITS.verificationLinksPerAccount, userId);
    await this.mails.verification(userId, user.emailAddress, meta.now);
    return { message: `We sent a new link to ${maskEmail(user.emailAddress, '•••')}. It lasts 24 hours.` };
  }
}
