import type { Logger } from 'pino';
import { DevOutbox } from './dev-outbox.js';
import { SmtpMailSender } from './smtp-mail-sender.js';

export interface OutgoingMail {
  to: string;
  subject: string;
  text: string;
  html?: string;
}

/** The port every context sends mail through. Subjects are logged in development: keep codes out of them. */
export interface MailSender {
  send(mail: OutgoingMail): Promise<void>;
}

/** Nest injection token for the process's MailSender. */
export const MAIL_SENDER = Symbol('MAIL_SENDER');

export interface MailSenderOptions {
  smtpUrl?: string;
  /** Sender, e.g. `Serendip <no-reply@example.com>`. */
  from: string;
  nodeEnv: string;
  logger: Logger;
}

/** SMTP when `smtpUrl` is set; otherwise the in-memory dev outbox, which production must never use. */
export function createMailSender({ smtpUrl, from, nodeEnv, logger }: MailSenderOptions): MailSender {
  if (smtpUrl) {
    if (!/^smtps?:\/\//i.test(smtpUrl)) throw new Error('SMTP_URL must start with smtp:// or smtps://');
    return new SmtpMailSender(smtpUrl, from);
  }
  // Mails to real people would vanish into memory, and the outbox page would show their codes.
  if (nodeEnv === 'production') throw new Error('SMTP_URL is required in production');
  return new DevOutbox(logger.child({ component: 'mail' }));
}
