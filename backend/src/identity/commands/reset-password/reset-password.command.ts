import { Command, CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { invalidField } from '../../../platform/cqrs/decider.js';
import type { CommandMetadata } from '../../../platform/cqrs/execute-decider.js';
import { Accounts } from '../../accounts/accounts.js';
import { IdentityMails } from '../../mail/identity-mails.js';
import { PasswordHasher } from '../../passwords/password-hasher.js';
import { passwordProblem } from '../../passwords/password-policy.js';
import { SignIns } from '../../sessions/sign-ins.js';

export class ResetPassword extends Command<void> {
  constructor(
    readonly token: string,
    readonly newPassword: string,
    /** The caller's own session, if the link was opened signed in: it stays. */
    readonly keepSessionId: string | undefined,
    readonly meta: CommandMetadata,
  ) {
    super();
  }
}

/** A new password from an e-mailed link; every session of the user ends but the caller's own (OWASP ASVS 3.3.3). */
@CommandHandler(ResetPassword)
export class ResetPasswordHandler implements ICommandHandler<ResetPassword> {
  private readonly hasher = new PasswordHasher();

  constructor(
    private readonly accounts: Accounts,
    private readonly mails: IdentityMails,
    private readonly signIns: SignIns,
  ) {}

  async execute({ token, newPassword, keepSessionId, meta }: ResetPassword): Promise<void> {
    const problem = passwordProblem(newPassword);
    if (problem) throw invalidField('newPassword', problem, 'weak-password');
    const { userId } = await this.mails.tokens.redeem(token, ['reset-password'], meta.now);
    await this.accounts.run(userId, { type: 'ResetPassword', passwordHash: await this.hasher.hash(newPassword) }, meta);
    await this.mails.voidPasswordSecrets(userId);
    await this.signIns.endAll(userId, 'password reset', meta, keepSessionId);
  }
}
