import { createServer } from 'node:net';
import { Writable } from 'node:stream';
import { pino } from 'pino';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type SmtpSink, startSmtpSink } from '../../test-support/smtp-sink.js';
import { DEV_OUTBOX_SIZE, DevOutbox } from './dev-outbox.js';
import { createMailSender } from './mail-sender.js';

const silent = pino({ level: 'silent' });
const FROM = 'Serendip <no-reply@serendip.test>';
// Longer than a mail line (76), with `=` and `&` that quoted-printable must escape.
const RESET_URL = `http://localhost:3000/reset-password/${'Zm9vYmFyYmF6cXV4'.repeat(5)}?lang=en&from=mail`;

function captureLog() {
  const lines: string[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _enc, done) {
      lines.push(...chunk.toString().split('\n').filter(Boolean));
      done();
    },
  });
  return { logger: pino(sink), lines };
}

async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

describe('mail through SMTP', () => {
  let sink: SmtpSink;
  beforeAll(async () => {
    sink = await startSmtpSink();
  });
  afterAll(() => sink.stop());

  it('reaches the right recipient with subject and text intact', async () => {
    const mail = createMailSender({ smtpUrl: sink.url, from: FROM, nodeEnv: 'production', logger: silent });
    await mail.send({ to: 'bob@example.com', subject: 'Not for Ada', text: 'code 111111' });
    await mail.send({
      to: 'ada@example.com',
      subject: 'Bestätige deine Adresse – Serendip',
      text: `Your sign-in code is 482913.\n\nReset your password: ${RESET_URL}\n`,
      html: `<p>Your sign-in code is <b>482913</b>.</p>`,
    });

    const received = await sink.waitFor((m) => m.to.includes('ada@example.com'));
    expect(received.to).toEqual(['ada@example.com']);
    expect(received.from).toBe('no-reply@serendip.test');
    expect(received.subject).toBe('Bestätige deine Adresse – Serendip');
    expect(received.text).toContain(RESET_URL);
    expect(received.text.match(/\b\d{6}\b/)?.[0]).toBe('482913');
    expect(received.html).toContain('<b>482913</b>');
    expect(sink.messages.filter((m) => m.to.includes('bob@example.com'))).toHaveLength(1);
  });

  it('refuses a recipient list smuggled into one address', async () => {
    const mail = createMailSender({ smtpUrl: sink.url, from: FROM, nodeEnv: 'production', logger: silent });
    const before = sink.messages.length;
    await expect(mail.send({ to: 'ada@example.com, eve@evil.test', subject: 's', text: 't' })).rejects.toThrow(
      /exactly one plain e-mail address/,
    );
    expect(sink.messages).toHaveLength(before);
  });

  it('fails on an unreachable server without showing the password', async () => {
    const port = await closedPort();
    const smtpUrl = `smtp://mailer:Sup3r%40Secret@127.0.0.1:${port}`;
    const mail = createMailSender({ smtpUrl, from: FROM, nodeEnv: 'production', logger: silent });
    const error = await mail.send({ to: 'ada@example.com', subject: 's', text: 't' }).catch((e: Error) => e);
    expect(error).toBeInstanceOf(Error);
    expect((error as Error).message).toContain(`127.0.0.1:${port}`);
    expect(`${(error as Error).message} ${(error as Error).stack}`).not.toMatch(/Sup3r/);
  });

  it('hides the password even when the server repeats it in its refusal', async () => {
    const strict = new SMTPServer({
      secure: false,
      allowInsecureAuth: true,
      disabledCommands: ['STARTTLS'],
      logger: false,
      onAuth: (auth, _session, callback) => callback(new Error(`login refused for ${auth.password}`)),
    });
    await new Promise<void>((resolve) => strict.listen(0, '127.0.0.1', resolve));
    const { port } = strict.server.address() as { port: number };
    try {
      const smtpUrl = `smtp://mailer:Sup3r%40Secret@127.0.0.1:${port}`;
      const mail = createMailSender({ smtpUrl, from: FROM, nodeEnv: 'production', logger: silent });
      const error = await mail.send({ to: 'ada@example.com', subject: 's', text: 't' }).catch((e: Error) => e);
      expect((error as Error).message).toMatch(/could not be sent/);
      expect((error as Error).message).not.toMatch(/Sup3r/);
    } finally {
      await new Promise<void>((resolve) => strict.close(resolve));
    }
  });
});

describe('mail without SMTP_URL', () => {
  it('is refused in production', () => {
    expect(() => createMailSender({ from: FROM, nodeEnv: 'production', logger: silent })).toThrow(
      'SMTP_URL is required in production',
    );
  });

  it('refuses a URL that is not SMTP, without repeating it', () => {
    expect(() =>
      createMailSender({ smtpUrl: 'http://u:hunter2@x', from: FROM, nodeEnv: 'development', logger: silent }),
    ).toThrow(/^SMTP_URL must start with smtp:\/\/ or smtps:\/\/$/);
  });

  it('keeps the last 50 mails in the dev outbox, newest first', async () => {
    const mail = createMailSender({ from: FROM, nodeEnv: 'development', logger: silent });
    expect(mail).toBeInstanceOf(DevOutbox);
    for (let i = 1; i <= DEV_OUTBOX_SIZE + 1; i++)
      await mail.send({ to: `user${i}@example.com`, subject: `mail ${i}`, text: `text ${i}` });

    const listed = (mail as DevOutbox).list();
    expect(listed).toHaveLength(50);
    expect(listed[0]).toMatchObject({ to: 'user51@example.com', subject: 'mail 51', text: 'text 51' });
    expect(listed.at(-1)?.subject).toBe('mail 2');
    expect(Date.parse(listed[0]!.sentAt)).not.toBeNaN();
  });

  it('logs one line per mail with a masked recipient and the subject, never the body', async () => {
    const { logger, lines } = captureLog();
    const outbox = createMailSender({ from: FROM, nodeEnv: 'development', logger });
    await outbox.send({
      to: 'ada.lovelace@example.com',
      subject: 'Your Serendip sign-in code',
      text: `Your code is 482913. Or follow ${RESET_URL}`,
      html: '<p>482913</p>',
    });

    expect(lines).toHaveLength(1);
    const line = lines[0]!;
    expect(JSON.parse(line)).toMatchObject({ to: 'a***@example.com', subject: 'Your Serendip sign-in code' });
    for (const secret of ['ada.lovelace', '482913', 'reset-password', 'Zm9vYmFy']) expect(line).not.toContain(secret);
  });
});
