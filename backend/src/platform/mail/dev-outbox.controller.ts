import { Controller, Get, Inject, NotFoundException, Req, Res } from '@nestjs/common';
import type { Request, Response } from 'express';
import { DevOutbox } from './dev-outbox.js';
import { MAIL_SENDER, type MailSender } from './mail-sender.js';

export interface OutboxEntry {
  to: string;
  subject: string;
  text: string;
  sentAt: string;
}

/** GET /api/dev/outbox: the dev outbox's mails, newest first, so a developer can follow a link or read a code. */
@Controller('dev/outbox')
export class DevOutboxController {
  constructor(@Inject(MAIL_SENDER) private readonly mail: MailSender) {}

  @Get()
  list(@Req() req: Request, @Res({ passthrough: true }) res: Response): OutboxEntry[] {
    // Off whenever mail really leaves (SMTP configured, always so in production): the page does not exist then.
    if (!(this.mail instanceof DevOutbox)) throw new NotFoundException();
    // It shows sign-in codes and reset links: only to the developer's own machine, not the LAN.
    if (!isLoopback(req.socket.remoteAddress)) throw new NotFoundException();
    res.setHeader('Cache-Control', 'no-store');
    return this.mail.list().map(({ to, subject, text, sentAt }) => ({ to, subject, text, sentAt }));
  }
}

function isLoopback(address: string | undefined): boolean {
  return !!address && (address === '::1' || address.startsWith('127.') || address.startsWith('::ffff:127.'));
}
