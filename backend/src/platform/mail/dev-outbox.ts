import type { Logger } from 'pino';
import { assertOneRecipient, maskEmail } from './mail-address.js';
import type { MailSender, OutgoingMail } from './mail-port.js';

export const DEV_OUTBOX_SIZE = 50;

export interface OutboxMail {
  to: string;
  subject: string;
  text: string;
  html?: string;
  /** ISO 8601 */
  sentAt: string;
}

/** Development without SMTP: mails stay in memory (newest first) for GET /api/dev/outbox. */
export class DevOutbox implements MailSender {
  private readonly mails: OutboxMail[] = [];

  constructor(
    private readonly logger: Logger,
    private readonly now: () => Date = () => new Date(),
  ) {}

  async send(mail: OutgoingMail): Promise<void> {
    assertOneRecipient(mail.to);
    this.mails.unshift({ ...mail, sentAt: this.now().toISOString() });
    this.mails.length = Math.min(this.mails.length, DEV_OUTBOX_SIZE);
    // Never the body (codes, reset links) nor the whole address: logs are kept and shared.
    this.logger.info(
      { to: maskEmail(mail.to), subject: mail.subject },
      'mail kept in the dev outbox: open /api/dev/outbox',
    );
  }

  /** Newest first. */
  list(): OutboxMail[] {
    return this.mails.map((mail) => ({ ...mail }));
  }
}
