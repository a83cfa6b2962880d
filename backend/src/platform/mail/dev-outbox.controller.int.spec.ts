import 'reflect-metadata';
import { type DynamicModule, type INestApplication, Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { API_PREFIX } from '@serendip/proto';
import { pino } from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { DevOutboxController } from './dev-outbox.controller.js';
import { createMailSender, MAIL_SENDER, type MailSender } from './mail-sender.js';

@Module({})
class OutboxTestModule {
  static with(sender: MailSender): DynamicModule {
    return {
      module: OutboxTestModule,
      controllers: [DevOutboxController],
      providers: [{ provide: MAIL_SENDER, useValue: sender }],
    };
  }
}

const silent = pino({ level: 'silent' });
const FROM = 'Serendip <no-reply@serendip.test>';
let app: INestApplication | undefined;

async function serve(sender: MailSender): Promise<string> {
  app = await NestFactory.create(OutboxTestModule.with(sender), { logger: false });
  app.setGlobalPrefix(API_PREFIX);
  await app.listen(0, '127.0.0.1');
  return `${(await app.getUrl()).replace('[::1]', '127.0.0.1')}/${API_PREFIX}/dev/outbox`;
}

afterEach(async () => {
  await app?.close();
  app = undefined;
});

describe('GET /api/dev/outbox', () => {
  it('lists the dev outbox, newest first, so a developer can follow the link', async () => {
    const mail = createMailSender({ from: FROM, nodeEnv: 'development', logger: silent });
    await mail.send({ to: 'ada@example.com', subject: 'Verify', text: 'http://localhost:3000/verify/abc' });
    await mail.send({ to: 'bob@example.com', subject: 'Code', text: 'Your code is 482913', html: '<b>482913</b>' });

    const res = await fetch(await serve(mail));
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('no-store');
    const body = (await res.json()) as Record<string, unknown>[];
    expect(body.map((m) => m.subject)).toEqual(['Code', 'Verify']);
    expect(Object.keys(body[0]!).sort()).toEqual(['sentAt', 'subject', 'text', 'to']);
    expect(body[1]).toMatchObject({ to: 'ada@example.com', text: 'http://localhost:3000/verify/abc' });
  });

  it('does not exist when mail goes out through SMTP', async () => {
    const mail = createMailSender({
      smtpUrl: 'smtp://127.0.0.1:25',
      from: FROM,
      nodeEnv: 'development',
      logger: silent,
    });
    const res = await fetch(await serve(mail));
    expect(res.status).toBe(404);
  });
});
