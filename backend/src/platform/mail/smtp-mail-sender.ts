import { createTransport } from 'nodemailer';
import { safeUrl } from '../logging/logger.js';
import { assertOneRecipient } from './mail-address.js';
import type { MailSender, OutgoingMail } from './mail-port.js';

/** Sends through the SMTP server of `SMTP_URL` (smtp:// or smtps://, credentials in the URL). */
export class SmtpMailSender implements MailSender {
  private readonly transport;
  private readonly secrets: string[];

  constructor(
    private readonly smtpUrl: string,
    from: string,
  ) {
    this.transport = createTransport(
      // nodemailer waits minutes by default; a sign-up request should fail well before its client gives up.
      { url: smtpUrl, connectionTimeout: 10_000, greetingTimeout: 10_000, socketTimeout: 30_000 },
      { from },
    );
    this.secrets = passwordForms(smtpUrl);
  }

  async send(mail: OutgoingMail): Promise<void> {
    assertOneRecipient(mail.to);
    try {
      await this.transport.sendMail({ to: mail.to, subject: mail.subject, text: mail.text, html: mail.html });
    } catch (error) {
      // A fresh error without `cause`: the original may carry the transport options (the password) along.
      throw new Error(`mail could not be sent through ${safeUrl(this.smtpUrl)}: ${this.describe(error)}`);
    }
  }

  private describe(error: unknown): string {
    const e = error as { message?: unknown; code?: unknown };
    let text = `${typeof e.code === 'string' ? `${e.code} ` : ''}${String(e.message ?? error)}`;
    for (const secret of this.secrets) text = text.split(secret).join('[redacted]');
    return text;
  }
}

function passwordForms(url: string): string[] {
  try {
    const { password } = new URL(url);
    if (!password) return [];
    let decoded = password;
    try {
      decoded = decodeURIComponent(password);
    } catch {
      // kept as written
    }
    return [...new Set([password, decoded])].filter((p) => p.length > 0);
  } catch {
    return [];
  }
}
