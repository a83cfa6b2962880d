import { Controller, Get, Inject, NotFoundException, Req, Res } from '@nestjs/common';
import type { Request, Response } from 'express';
import { DevOutbox } from './dev-outbox.js';
import { MAIL_SENDER, type MailSender } from './mail-sender.js';
import { ApiAnswers } from '../api-docs/api-answers.js';

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

  @ApiAnswers({ 404: 'Mail really leaves this deployment (SMTP_URL), or the caller is not on this machine.' })
  @Get()
  list(@Req() req: Request, @Res({ passthrough: true }) res: Response): OutboxEntry[] {
    // Off whenever mail really leaves (SMTP configured, always so in production): the page does not exist then.
    if (!(this.mail instanceof DevOutbox)) throw new NotFoundException();
    // It shows sign-in codes and reset links: only to the developer's own machine, not the LAN. A proxy on the same
    // machine (a TLS terminator, Vite's dev server with --host) connects from loopback too, so a request forwarded
    // for another machine, or addressed to another host name, is not the developer's own either.
    if (!isLoopback(req.socket.remoteAddress) || forwardedForAnother(req) || !isLoopbackHost(req.headers.host)) {
      throw new NotFoundException();
    }
    res.setHeader('Cache-Control', 'no-store');
    return this.mail.list().map(({ to, subject, text, sentAt }) => ({ to, subject, text, sentAt }));
  }
}

/** Forwarded at all by anything but Vite's own proxy (X-Forwarded-For), or by it for another machine. */
function forwardedForAnother(req: Request): boolean {
  if (['forwarded', 'x-real-ip', 'via'].some((header) => req.headers[header] !== undefined)) return true;
  const chain = req.headers['x-forwarded-for'];
  if (chain === undefined) return false;
  return String(chain)
    .split(',')
    .some((address) => !isLoopback(address.trim()));
}

/** localhost, 127.x.x.x or [::1], with or without a port. */
function isLoopbackHost(host: string | undefined): boolean {
  if (!host) return false;
  const name = host.startsWith('[') ? host.slice(0, host.indexOf(']') + 1) : host.split(':')[0]!;
  return name === 'localhost' || name === '[::1]' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(name);
}

function isLoopback(address: string | undefined): boolean {
  return !!address && (address === '::1' || address.startsWith('127.') || address.startsWith('::ffff:127.'));
}
