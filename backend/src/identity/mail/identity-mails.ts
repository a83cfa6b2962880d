import { Inject, Injectable, Logger } from '@nestjs/common';
import type { Config } from '../../config/config.js';
import { CONFIG } from '../../config/config.token.js';
import { DomainError } from '../../platform/cqrs/decider.js';
import { LIMITS, RATE_LIMITS, type RateLimits } from '../../platform/http/rate-limits.js';
import { emailKey } from '../accounts/email-address.js';
import { maskEmail } from '../../platform/mail/mail-address.js';
import { MAIL_SENDER, type MailSender } from '../../platform/mail/mail-sender.js';
import { EmailTokens } from '../accounts/email-tokens.js';
import { DATABASE, type Db } from '../../platform/database/database.js';
import { newSecret } from '../sessions/secrets.js';

const VERIFY_EMAIL_TTL_MS = 24 * 3_600_000;
const RESET_PASSWORD_TTL_MS = 30 * 60_000;
const CHANGE_EMAIL_TTL_MS = 24 * 3_600_000;

/**
 * Every mail identity sends (spec 1 "Accounts"), and the single-use links in them. Mail to an address counts against
 * its hourly limit; a mail that cannot go is logged, except the sign-in code, which the person is waiting for.
 */
@Injectable()
export class IdentityMails {
  private readonly logger = new Logger(IdentityMails.name);
  readonly tokens: EmailTokens;

  constructor(
    @Inject(MAIL_SENDER) private readonly mail: MailSender,
    @Inject(CONFIG) private readonly config: Config,
    @Inject(RATE_LIMITS) private readonly limits: RateLimits,
    @Inject(DATABASE) private readonly db: Db,
  ) {
    this.tokens = new EmailTokens(db);
  }

  /** The sign-up link that confirms the address. Never throws: the account exists, and the link can be sent again. */
  async verification(userId: string, emailAddress: string, now: Date, { takesOver = false } = {}): Promise<void> {
    await this.bestEffort('sign-up', async () => {
      if (!(await this.allowed(emailAddress))) return;
      const token = newSecret();
      await this.tokens.issue(token, userId, 'verify-email', VERIFY_EMAIL_TTL_MS, now);
      const link = `${this.config.publicUrl}/auth/verify-email?token=${token}`;
      // A link that moves the address away from an earlier, unconfirmed account says so: the mailbox's owner may be
      // that account's owner, and must not hand their address to someone else's sign-up by mistake.
      await this.mail.send(
        takesOver
          ? {
              to: emailAddress,
              subject: 'Confirm your e-mail address for a new Serendip account',
              text: `Someone, maybe you, just signed up for a new Serendip account with this e-mail address. An earlier account signed up with it too but never confirmed it.\n\nFollowing this link (valid for 24 hours) gives the address to the new account; the earlier one can then no longer sign in with it:\n${link}\n\nIf you did not just sign up, ignore this e-mail: nothing changes.`,
            }
          : {
              to: emailAddress,
              subject: 'Confirm your e-mail address for Serendip',
              text: `Welcome to Serendip!\n\nConfirm your e-mail address with this link (valid for 24 hours):\n${link}\n\nIf you did not sign up, ignore this e-mail.`,
            },
      );
    });
  }

  /** To the owner of an address someone tried to sign up with: what they can do, and that nothing changed. */
  async addressInUse(emailAddress: string): Promise<void> {
    await this.bestEffort('sign-up', async () => {
      if (!(await this.allowed(emailAddress))) return;
      const site = this.config.publicUrl;
      await this.mail.send({
        to: emailAddress,
        subject: 'Someone tried to sign up for Serendip with your e-mail address',
        text: `Someone, maybe you, tried to create a Serendip account with this e-mail address. You already have an account, so we did not give them this address.\n\nIf it was you: log in at ${site}/auth/login, or choose a new password at ${site}/auth/password-reset.\n\nIf it was not you, there is nothing to do: nobody got into your account.`,
      });
    });
  }

  /** Sign-up with the address of a permanently banned account: answered alike (no enumeration), told here. */
  async addressBarred(emailAddress: string): Promise<void> {
    await this.bestEffort('sign-up', async () => {
      if (!(await this.allowed(emailAddress))) return;
      await this.mail.send({
        to: emailAddress,
        subject: 'This e-mail address cannot be used on Serendip',
        text: `Someone, maybe you, tried to create a Serendip account with this e-mail address. An account with this address was permanently banned for breaking the community guidelines, so the address cannot be used for a new account.\n\nIf you think this is a mistake, write to us from this address.`,
      });
    });
  }

  /** The person is waiting for it: if it cannot go, say so (503) rather than a bare 500. */
  async signInCode(emailAddress: string, code: string): Promise<void> {
    try {
      await this.mail.send({
        to: emailAddress,
        subject: 'Your Serendip sign-in code',
        text: `Your sign-in code is ${code}. It works once, for 10 minutes.\n\nIf you did not try to sign in, change your password.`,
      });
    } catch (error) {
      this.logger.error(`mail failed: ${messageOf(error)}`);
      throw new DomainError('mail-unavailable', 'We could not send the e-mail; please try again in a moment', {
        kind: 'unavailable',
      });
    }
  }

  /** Throws when the mail cannot go: the caller runs it after answering. */
  async passwordReset(userId: string, emailLower: string, now: Date): Promise<void> {
    if (!(await this.allowed(emailLower))) return;
    const token = newSecret();
    await this.tokens.issue(token, userId, 'reset-password', RESET_PASSWORD_TTL_MS, now);
    await this.mail.send({
      to: emailLower,
      subject: 'Reset your Serendip password',
      text: `Choose a new password with this link (valid for 30 minutes, once):\n${this.config.publicUrl}/reset-password/${token}\n\nIf you did not ask for it, ignore this e-mail: your password stays as it is.`,
    });
  }

  /**
   * A link to the new address; an address that already has an account gets a notice instead (no enumeration: the
   * answer is the same either way).
   */
  async emailChange(userId: string, newEmail: string, taken: boolean, now: Date): Promise<void> {
    await this.bestEffort('e-mail change', async () => {
      if (!(await this.allowed(newEmail))) return;
      const site = this.config.publicUrl;
      let mail: { subject: string; text: string };
      if (taken) {
        mail = {
          subject: 'Someone tried to move a Serendip account to your e-mail address',
          text: `Someone tried to use this e-mail address for another Serendip account. Your own account is unchanged and nobody got into it.\n\nIf that was you, you can log in at ${site}/auth/login.`,
        };
      } else {
        const token = newSecret();
        await this.tokens.issue(token, userId, 'change-email', CHANGE_EMAIL_TTL_MS, now, newEmail);
        mail = {
          subject: 'Confirm your new e-mail address for Serendip',
          text: `Confirm that this is the new e-mail address of your Serendip account with this link (valid for 24 hours):\n${site}/auth/verify-email?token=${token}\n\nUntil then your account keeps its old address. If you did not ask for this, ignore this e-mail.`,
        };
      }
      await this.mail.send({ to: newEmail, ...mail });
    });
  }

  /** To the old address once the new one took over. */
  async emailChanged(oldEmail: string, newEmail: string): Promise<void> {
    await this.bestEffort('e-mail change notice', () =>
      this.mail.send({
        to: oldEmail,
        subject: 'Your Serendip e-mail address was changed',
        text: `The e-mail address of your Serendip account was changed to ${maskEmail(newEmail, '•••')}. From now on, log in with the new address.\n\nIf you did not do this, reset your password at ${this.config.publicUrl}/auth/password-reset and write to us.`,
      }),
    );
  }

  /**
   * A new password voids what the old one let out: reset links still in mailboxes, sign-in codes waiting to be
   * typed, and known-device cookies (each has its own count of failed logins: whoever made the change necessary may
   * have collected some).
   */
  async voidPasswordSecrets(userId: string): Promise<void> {
    await this.db
      .deleteFrom('auth_email_tokens')
      .where('user_id', '=', userId)
      .where('purpose', '=', 'reset-password')
      .execute();
    await this.db.deleteFrom('auth_login_challenges').where('user_id', '=', userId).execute();
    await this.db.deleteFrom('auth_known_devices').where('user_id', '=', userId).execute();
  }

  private allowed(emailAddress: string): Promise<boolean> {
    return this.limits.allow(LIMITS.mailsPerAddress, emailKey(emailAddress));
  }

  private async bestEffort(what: string, send: () => Promise<void>): Promise<void> {
    try {
      await send();
    } catch (error) {
      this.logger.error(`${what} mail failed: ${messageOf(error)}`);
    }
  }
}

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));
