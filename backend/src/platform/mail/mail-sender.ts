import type { Logger } from 'pino';
import { DevOutbox } from './dev-outbox.js';
import type { MailSender } from './mail-port.js';
import { SmtpMailSender } from './smtp-mail-sender.js';

// The port has its own file so that the senders implement it without importing this factory, which imports them.
export type { MailSender, OutgoingMail } from './mail-port.js';

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
