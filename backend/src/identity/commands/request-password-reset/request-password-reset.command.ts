import { Inject, Logger } from '@nestjs/common';
import { Command, CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { DATABASE, type Db } from '../../../platform/database/database.js';
import { Accounts } from '../../accounts/accounts.js';
import { emailKey } from '../../accounts/email-address.js';
import { IdentityMails } from '../../mail/identity-mails.js';

export const PASSWORD_RESET_ANSWER = 'If an account exists for this address, we sent a link to reset its password.';

export class RequestPasswordReset extends Command<void> {
  constructor(
    readonly emailAddress: string,
    readonly now: Date,
  ) {
    super();
  }
}

/**
 * Always the same answer, at once: whether the address has an account, and whether its hourly mail limit is used up,
 * shows neither in the answer nor in its timing (the work goes on after answering).
 */
@CommandHandler(RequestPasswordReset)
export class RequestPasswordResetHandler implements ICommandHandler<RequestPasswordReset> {
  private readonly logger = new Logger(RequestPasswordResetHandler.name);

  constructor(
    @Inject(DATABASE) private readonly db: Db,
    private readonly mails: IdentityMails,
    private readonly accounts: Accounts,
  ) {}

  execute({ emailAddress, now }: RequestPasswordReset): Promise<void> {
    void this.send(emailKey(emailAddress), now).catch((error: unknown) =>
      this.logger.error(`password reset mail failed: ${error instanceof Error ? error.message : String(error)}`),
    );
    return Promise.resolve();
  }

  private async send(key: string, now: Date): Promise<void> {
    const owner = await this.db
      .selectFrom('account_emails')
      .select('user_id')
      .where('email_lower', '=', key)
      .executeTakeFirst();
    if (!owner) return;
    // To the address the account holds, not as typed (a look-alike spelling is not its mailbox).
    const { emailAddress } = await this.accounts.userInfo(owner.user_id, now);
    await this.mails.passwordReset(owner.user_id, emailAddress, now);
  }
}
