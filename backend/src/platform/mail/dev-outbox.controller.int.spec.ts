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

  it('does not exist for a request a same-machine proxy forwarded, or one addressed to another host name', async () => {
    const mail = createMailSender({ from: FROM, nodeEnv: 'development', logger: silent });
    await mail.send({ to: 'ada@example.com', subject: 'Code', text: 'Your code is 482913' });
    const url = await serve(mail);
    for (const headers of [
      { 'X-Forwarded-For': '203.0.113.9' } as Record<string, string>,
      { Forwarded: 'for=203.0.113.9' },
      { 'X-Real-IP': '203.0.113.9' },
      { Via: '1.1 proxy' },
    ]) {
      expect((await fetch(url, { headers })).status, JSON.stringify(headers)).toBe(404);
    }
    // fetch will not set Host itself; a raw request shows what a proxy passing the public name on would send.
    const { request } = await import('node:http');
    const status = (host: string) =>
      new Promise<number>((resolve, reject) => {
        const req = request(url, { headers: { Host: host } }, (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
        });
        req.on('error', reject);
        req.end();
      });
    expect(await status('serendip.example')).toBe(404);
    expect(await status('192.168.1.20:5173')).toBe(404);
    expect(await status('localhost:5173')).toBe(200);
    expect(await status('[::1]:3000')).toBe(200);
    // The web client's dev server on this machine forwards for this machine: the developer's own.
    expect((await fetch(url, { headers: { 'X-Forwarded-For': '127.0.0.1' } })).status).toBe(200);
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
