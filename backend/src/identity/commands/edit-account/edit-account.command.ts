import { Inject } from '@nestjs/common';
import { Command, CommandBus, CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import type { EditAccountAnswer, EditAccountRequest } from '@serendip/proto';
import { invalidField } from '../../../platform/cqrs/decider.js';
import type { CommandMetadata } from '../../../platform/cqrs/execute-decider.js';
import { DATABASE, type Db } from '../../../platform/database/database.js';
import { Accounts } from '../../accounts/accounts.js';
import { canonicalEmail, emailKey } from '../../accounts/email-address.js';
import { CurrentPassword } from '../../passwords/current-password.js';
import { IdentityMails } from '../../mail/identity-mails.js';
import { PasswordHasher } from '../../passwords/password-hasher.js';
import { passwordProblem } from '../../passwords/password-policy.js';
import { EndOtherSessions } from '../end-other-sessions/end-other-sessions.command.js';

export class EditAccount extends Command<EditAccountAnswer> {
  constructor(
    readonly userId: string,
    readonly sessionId: string,
    readonly request: EditAccountRequest,
    readonly meta: CommandMetadata,
  ) {
    super();
  }
}

/**
 * spec 2 "Account settings dialog": a new password takes effect at once (other sessions end if asked: OWASP ASVS 3.3.3);
 * a new e-mail only once the link mailed to it is followed (VerifyEmail), so a typo never locks anyone out. Every
 * change needs the current password.
 */
@CommandHandler(EditAccount)
export class EditAccountHandler implements ICommandHandler<EditAccount> {
  private readonly hasher = new PasswordHasher();

  constructor(
    @Inject(DATABASE) private readonly db: Db,
    private readonly accounts: Accounts,
    private readonly currentPassword: CurrentPassword,
    private readonly mails: IdentityMails,
    private readonly commands: CommandBus,
  ) {}

  async execute({ userId, sessionId, request, meta }: EditAccount): Promise<EditAccountAnswer> {
    const current = await this.accounts.userInfo(userId, meta.now);
    const newEmail = request.emailAddress ? canonicalEmail(request.emailAddress) : undefined;
    const changesEmail = !!newEmail && emailKey(newEmail) !== emailKey(current.emailAddress);
    const changesPassword = !!request.newPassword;
    if (!changesEmail && !changesPassword) return { user: current };
    await this.currentPassword.check(userId, request.currentPassword);

    const answer: EditAccountAnswer = { user: current };
    if (changesPassword) {
      const problem = passwordProblem(request.newPassword!);
      if (problem) throw invalidField('newPassword', problem, 'weak-password');
      const passwordHash = await this.hasher.hash(request.newPassword!);
      await this.accounts.run(userId, { type: 'ChangePassword', passwordHash }, meta);
      await this.mails.voidPasswordSecrets(userId);
      // Unless the person says otherwise, a new password signs out everyone who knew the old one.
      if (request.endOtherSessions !== false) {
        answer.endedSessions = await this.commands.execute(new EndOtherSessions(userId, sessionId, meta));
      }
    }
    if (changesEmail) {
      const taken = await this.db
        .selectFrom('account_emails')
        .select('user_id')
        .where('email_lower', '=', emailKey(newEmail))
        .executeTakeFirst();
      await this.mails.emailChange(userId, newEmail, !!taken, meta.now);
      answer.pendingEmailAddress = newEmail;
    }
    return answer;
  }
}
