import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiClient } from '../test-support/api-client.js';
import { type SmtpSink, startSmtpSink } from '../test-support/smtp-sink.js';
import { startTestApp, type TestApp } from '../test-support/test-app.js';
import { sinkMailbox, VIDEO_USER_PASSWORD, videoUser } from '../test-support/video-users.js';

const PASSWORD = VIDEO_USER_PASSWORD;

/**
 * Two-factor sign-in (spec 1 "Accounts", 7 enable-twofac) after the changes most people make first: a new e-mail
 * address and a profile picture. Neither may make the account look as if two-factor were already on.
 */
describe('two-factor after an e-mail and avatar change', () => {
  let test: TestApp;
  let sink: SmtpSink;
  let dataDir: string;

  beforeAll(async () => {
    sink = await startSmtpSink();
    dataDir = await mkdtemp(path.join(os.tmpdir(), 'serendip-2fa-'));
    test = await startTestApp({ SMTP_URL: sink.url, DATA_DIR: dataDir });
  });
  afterAll(async () => {
    await test?.close();
    await sink?.stop();
    await rm(dataDir, { recursive: true, force: true });
  });

  const address = () => `twofac-${randomUUID().slice(0, 8)}@example.com`;

  it('turns on, and the next login asks for the e-mailed code', async () => {
    const { api: client, user } = await videoUser(test.base, { firstName: 'Grace' }, sinkMailbox(sink));

    // A new address, through the link mailed to it.
    const second = address();
    const edit = await client.call('POST', '/user/edit-account', { emailAddress: second, currentPassword: PASSWORD });
    expect(edit.status).toBe(200);
    const mail = await sink.waitFor((m) => m.to.includes(second));
    const token = /verify-email\?token=([\w-]+)/.exec(mail.text)![1]!;
    expect((await new ApiClient(test.base).call('POST', '/auth/verify-email', { token })).status).toBe(200);

    // A picture, uploaded whole in the creating tus request.
    const jpeg = await sharp({ create: { width: 64, height: 64, channels: 3, background: '#3a6' } })
      .jpeg()
      .toBuffer();
    const b64 = (text: string) => Buffer.from(text).toString('base64');
    const upload = await fetch(`${test.base}/api/uploads/avatars`, {
      method: 'POST',
      headers: {
        'Tus-Resumable': '1.0.0',
        'Upload-Length': String(jpeg.length),
        'Upload-Metadata': `filename ${b64('me.jpg')},filetype ${b64('image/jpeg')}`,
        'Content-Type': 'application/offset+octet-stream',
        Cookie: client.cookieHeader(),
        'X-Forwarded-For': client.ip,
      },
      body: new Uint8Array(jpeg),
    });
    expect(upload.status).toBe(200);
    const before = (await client.call('GET', '/auth/user-info')).body;
    expect(before).toMatchObject({ emailAddress: second, twoFactorEnabled: false });
    expect(before.avatar).toMatch(/\/api\/avatars\//);

    const enabled = await client.call('POST', '/user/enable-twofac');
    expect(enabled.status).toBe(200);
    expect(enabled.body.twoFactorEnabled).toBe(true);
    // What the Security tab shows after a reload.
    expect((await client.call('GET', '/auth/user-info')).body.twoFactorEnabled).toBe(true);

    const other = new ApiClient(test.base);
    // Typed differently from how the account holds it: the code still goes to the stored address only.
    const typed = second.toUpperCase();
    const mailsBefore = sink.messages.length;
    const login = await other.call('POST', '/auth/login', { emailAddress: typed, password: PASSWORD });
    expect(login.status).toBe(200);
    expect(login.body).toEqual({ twoFactorRequired: true, challengeId: expect.any(String) });
    const codeMail = await sink.waitFor(
      (m) => /sign-in code/.test(m.subject) && sink.messages.indexOf(m) >= mailsBefore,
    );
    expect(codeMail.to).toEqual([second]);
    const code = /\b(\d{6})\b/.exec(codeMail.text)![1]!;
    const verified = await other.call('POST', '/auth/login/verify', { challengeId: login.body.challengeId, code });
    expect(verified.status).toBe(200);
    expect(verified.body._id).toBe(user._id);
  });
});
