import { Inject, Injectable, Logger, UnauthorizedException } from '@nestjs/common';
import type { EditAccountAnswer, EditAccountRequest } from '@serendip/proto';
import type { Config } from '../../config/config.js';
import { CONFIG } from '../../config/config.token.js';
import { type CommandMetadata, executeDecider } from '../../platform/cqrs/execute-decider.js';
import { DATABASE, type Db } from '../../platform/database/database.js';
import { EVENT_CORE, type EventCore } from '../../platform/event-core/event-core.js';
import { LIMITS, type RateLimits } from '../../platform/http/rate-limits.js';
import { MAIL_SENDER, type MailSender } from '../../platform/mail/mail-sender.js';
import { AVATAR_STORAGE, type AvatarStorage, avatarNameOf } from '../avatars/avatar-storage.js';
import { account, type AccountCommand } from '../domain/account.decider.js';
import { type AccountEvent, accountStream } from '../domain/account.events.js';
import { PasswordHasher } from '../passwords/password-hasher.js';
import { passwordProblem } from '../passwords/password-policy.js';
import { newSecret } from '../sessions/secrets.js';
import { SessionStore } from '../sessions/session-store.js';
import { EmailTokens } from './email-tokens.js';
import { badRequest, currentPasswordHash, IdentityService, RATE_LIMITS } from './identity.service.js';
import { readUserInfo } from './user-info.js';

const CHANGE_EMAIL_TTL_MS = 24 * 3_600_000;

/**
 * The account itself (issue 6): e-mail and password changes, and deletion. Every change needs the current password;
 * wrong guesses count against the same per-account limit as logins.
 */
@Injectable()
export class AccountService {
  private readonly logger = new Logger(AccountService.name);
  private readonly hasher = new PasswordHasher();
  private readonly sessions: SessionStore;
  private readonly emailTokens: EmailTokens;

  constructor(
    @Inject(EVENT_CORE) private readonly core: EventCore,
    @Inject(DATABASE) private readonly db: Db,
    @Inject(MAIL_SENDER) private readonly mail: MailSender,
    @Inject(CONFIG) private readonly config: Config,
    @Inject(RATE_LIMITS) private readonly limits: RateLimits,
    private readonly identity: IdentityService,
    @Inject(AVATAR_STORAGE) private readonly avatars: AvatarStorage,
  ) {
    this.sessions = new SessionStore(db);
    this.emailTokens = new EmailTokens(db);
  }

  /**
   * A new password takes effect at once (other sessions end if asked: OWASP ASVS 3.3.3); a new e-mail only once
   * the link mailed to it is followed (IdentityService.verifyEmail), so a typo never locks anyone out.
   */
  async editAccount(
    userId: string,
    sessionId: string,
    request: EditAccountRequest,
    meta: CommandMetadata,
  ): Promise<EditAccountAnswer> {
    const current = await readUserInfo(this.db, userId, meta.now);
    if (!current) throw new UnauthorizedException();
    const newEmail = request.emailAddress?.trim();
    const changesEmail = !!newEmail && newEmail.toLowerCase() !== current.emailAddress.toLowerCase();
    const changesPassword = !!request.newPassword;
    if (!changesEmail && !changesPassword) return { user: current };
    await this.checkPassword(userId, request.currentPassword);

    const answer: EditAccountAnswer = { user: current };
    if (changesPassword) {
      const problem = passwordProblem(request.newPassword!);
      if (problem) throw badRequest(['newPassword', problem]);
      await this.execute(
        userId,
        { type: 'ChangePassword', passwordHash: await this.hasher.hash(request.newPassword!) },
        meta,
      );
      if (request.endOtherSessions)
        answer.endedSessions = await this.identity.endOtherSessions(userId, sessionId, meta);
    }
    if (changesEmail) {
      await this.requestEmailChange(userId, newEmail, meta.now);
      answer.pendingEmailAddress = newEmail;
    }
    return answer;
  }

  /**
   * Ends every session, records the deletion, destroys the person's key (crypto-shredding: every personal field in
   * the log reads as erased from now on) and frees the address. Non-personal history stays, under the bare id.
   */
  async deleteAccount(userId: string, currentPassword: string, meta: CommandMetadata): Promise<void> {
    await this.checkPassword(userId, currentPassword);
    // Read before the deletion clears it from the read model.
    const avatar = avatarNameOf((await readUserInfo(this.db, userId, meta.now))?.avatar);
    for (const sessionId of await this.sessions.activeSessionsOf(userId, meta.now)) {
      await this.identity.endSession(userId, sessionId, meta);
    }
    const { position } = await executeDecider(
      this.core,
      accountStream(userId),
      account,
      { type: 'DeleteAccount' },
      meta,
    );
    await this.core.vault.forgetSubject(userId);
    await this.db.deleteFrom('account_emails').where('user_id', '=', userId).execute();
    // The ended sessions stay (audit) but say nothing more about the person: where, from what, from which address.
    await this.db
      .updateTable('auth_sessions')
      .set({ ip: null, user_agent: null, country: null, city: null })
      .where('user_id', '=', userId)
      .execute();
    await this.db.deleteFrom('auth_email_tokens').where('user_id', '=', userId).execute();
    await this.db.deleteFrom('auth_login_challenges').where('user_id', '=', userId).execute();
    if (position) await this.core.projections.caughtUpTo(position, 5000);
    // The picture goes with the account; the account is gone either way, so a failure is only logged.
    if (avatar)
      await this.avatars
        .remove(avatar)
        .catch((error: unknown) => this.logger.error(`avatar not removed: ${(error as Error).message}`));
  }

  private async checkPassword(userId: string, password: string | undefined): Promise<void> {
    await this.limits.check(LIMITS.loginFailuresPerAccount, userId);
    const history = (await this.core.store.readStream(accountStream(userId))).map(
      (e) => ({ type: e.type, data: e.data }) as AccountEvent,
    );
    if (!password || !(await this.hasher.verify(currentPasswordHash(history), password))) {
      await this.limits.consume(LIMITS.loginFailuresPerAccount, userId);
      throw badRequest(['currentPassword', 'the current password is not right']);
    }
  }

  /**
   * A link to the new address; an address that already has an account gets a notice instead, and the answer is
   * the same either way (no enumeration).
   */
  private async requestEmailChange(userId: string, newEmail: string, now: Date): Promise<void> {
    const taken = await this.db
      .selectFrom('account_emails')
      .select('user_id')
      .where('email_lower', '=', newEmail.toLowerCase())
      .executeTakeFirst();
    if (!(await this.limits.allow(LIMITS.mailsPerAddress, newEmail.toLowerCase()))) return;
    const site = this.config.publicUrl;
    let mail: { subject: string; text: string };
    if (taken) {
      mail = {
        subject: 'Someone tried to move a Serendip account to your e-mail address',
        text: `Someone tried to use this e-mail address for another Serendip account. Your own account is unchanged and nobody got into it.\n\nIf that was you, you can log in at ${site}/auth/login.`,
      };
    } else {
      const token = newSecret();
      await this.emailTokens.issue(token, userId, 'change-email', CHANGE_EMAIL_TTL_MS, now, newEmail);
      mail = {
        subject: 'Confirm your new e-mail address for Serendip',
        text: `Confirm that this is the new e-mail address of your Serendip account with this link (valid for 24 hours):\n${site}/auth/verify-email?token=${token}\n\nUntil then your account keeps its old address. If you did not ask for this, ignore this e-mail.`,
      };
    }
    await this.mail
      .send({ to: newEmail, ...mail })
      .catch((error: unknown) =>
        this.logger.error(`e-mail change mail failed: ${error instanceof Error ? error.message : String(error)}`),
      );
  }

  private async execute(userId: string, command: AccountCommand, meta: CommandMetadata): Promise<void> {
    await executeDecider(this.core, accountStream(userId), account, command, meta);
  }
}
