import { mkdtemp, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import {
  HEALTH_MESSAGES,
  publicConfigSchema,
  type SystemClientToServerEvents,
  type SystemServerToClientEvents,
} from '@serendip/proto';
import { io, type Socket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from './test-support/test-app.js';

function connectOutcome(socket: Socket): Promise<'connected' | 'refused'> {
  return new Promise((resolve) => {
    socket.once('connect', () => (socket.disconnect(), resolve('connected')));
    socket.once('connect_error', () => (socket.disconnect(), resolve('refused')));
  });
}

describe('backend over HTTP and Socket.IO', () => {
  let test: TestApp;
  let base: string;

  beforeAll(async () => {
    const frontendDist = await mkdtemp(path.join(os.tmpdir(), 'serendip-dist-'));
    await writeFile(
      path.join(frontendDist, 'index.html'),
      '<!doctype html><html><head><title>x</title></head><body><div id="root">client</div></body></html>',
    );
    await writeFile(path.join(frontendDist, 'robots.txt'), 'User-agent: *');
    test = await startTestApp({
      FRONTEND_DIST: frontendDist,
      SUPPORT_EMAIL: 'help@serendip.example',
      COMPANY_NAME: 'Serendip "Labs" <Ltd>',
      SOCIAL_DISCORD_URL: 'https://discord.example/serendip',
    });
    base = test.base;
  });

  afterAll(async () => {
    await test?.close();
  });

  it('says it is up while Postgres answers', async () => {
    const res = await fetch(`${base}/api/health`);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ message: HEALTH_MESSAGES.up });
    expect(res.headers.get('cache-control')).toBe('no-store');
  });

  it('answers an unknown API path with a JSON 404, not the web client', async () => {
    const res = await fetch(`${base}/api/no-such-thing`);
    expect(res.status).toBe(404);
    expect(res.headers.get('content-type')).toMatch(/application\/json/);
    expect(await res.json()).toMatchObject({ statusCode: 404 });
  });

  it('serves the web client for any other path so its router can show its own pages', async () => {
    for (const route of ['/', '/no-such-page', '/video-match', '/legal/terms-of-use']) {
      const res = await fetch(`${base}${route}`);
      expect(res.status, route).toBe(200);
      expect(await res.text()).toContain('<div id="root">');
    }
    expect(await (await fetch(`${base}/robots.txt`)).text()).toBe('User-agent: *');
  });

  it("tells the client the deployment's support address, company and social links in index.html", async () => {
    const html = await (await fetch(`${base}/legal/privacy-policy`)).text();
    const content = /<meta name="serendip-config" content="([^"]*)"/.exec(html)?.[1];
    expect(content, 'config meta tag').toBeDefined();
    const decoded = content!
      .replace(/&quot;/g, '"')
      .replace(/&lt;/g, '<')
      .replace(/&gt;/g, '>')
      .replace(/&amp;/g, '&');
    expect(publicConfigSchema.parse(JSON.parse(decoded))).toEqual({
      supportEmail: 'help@serendip.example',
      companyName: 'Serendip "Labs" <Ltd>',
      socialLinks: { discord: 'https://discord.example/serendip' },
    });
  });

  it('sends security headers and no framework banner', async () => {
    const res = await fetch(`${base}/`);
    expect(res.headers.get('x-powered-by')).toBeNull();
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    const csp = res.headers.get('content-security-policy');
    expect(csp).toContain("default-src 'self'");
    expect(csp).toMatch(/connect-src 'self'(;|$)/);
    expect(csp).toContain("frame-ancestors 'self'");
    expect(res.headers.get('strict-transport-security')).toBeNull(); // plain-http PUBLIC_URL
  });

  it('recorded its start as an event, projected into the server log that admins will read', async () => {
    await expect
      .poll(() => test.db.selectFrom('server_log').select(['level', 'message']).execute(), { timeout: 5000 })
      .toContainEqual({ level: 'info', message: expect.stringMatching(/^Backend started \(pid \d+, node v/) });
    const [started] = (await test.core.store.readAll()).filter((e) => e.type === 'ServiceStarted');
    expect(started).toMatchObject({ streamId: expect.stringMatching(/^ops-instance-/), metadata: { actor: 'system' } });
  });

  describe('socket', () => {
    let socket: Socket<SystemServerToClientEvents, SystemClientToServerEvents>;
    beforeAll(async () => {
      socket = io(base, { transports: ['websocket'], reconnection: false });
      await new Promise<void>((resolve, reject) => {
        socket.once('connect', resolve);
        socket.once('connect_error', reject);
      });
    });
    afterAll(() => {
      socket?.disconnect();
    });

    it('accepts a connection on the same port and answers a ping with the client time echoed', async () => {
      const sentAt = Date.now();
      const answer = await socket.timeout(2000).emitWithAck('ping', { sentAt });
      expect(answer).toEqual({ sentAt, serverTime: expect.any(Number) });
    });

    it("refuses a socket opened by another site's page, and the polling transport", async () => {
      const fromElsewhere = io(base, {
        transports: ['websocket'],
        reconnection: false,
        extraHeaders: { Origin: 'https://evil.example' },
      });
      await expect(connectOutcome(fromElsewhere)).resolves.toBe('refused');
      const fromUs = io(base, { transports: ['websocket'], reconnection: false, extraHeaders: { Origin: base } });
      await expect(connectOutcome(fromUs)).resolves.toBe('connected');
      const polling = io(base, { transports: ['polling'], reconnection: false });
      await expect(connectOutcome(polling)).resolves.toBe('refused');
    });

    it('answers a malformed ping with a reason and stays connected', async () => {
      const answer = await socket.timeout(2000).emitWithAck('ping', { sentAt: 'yesterday' } as never);
      expect(answer).toEqual({ error: { reason: expect.stringContaining('sentAt') } });
      expect(socket.connected).toBe(true);
    });
  });

  // Last: it takes the database away.
  it('says it is down, with a reason, once Postgres is gone', async () => {
    await test.database.drop();
    const res = await fetch(`${base}/api/health`);
    expect(res.status).toBe(503);
    expect(await res.json()).toEqual({
      message: HEALTH_MESSAGES.down,
      reason: expect.stringMatching(/^database unreachable/),
    });
  });
});
