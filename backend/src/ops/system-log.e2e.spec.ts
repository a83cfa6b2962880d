import { randomUUID } from 'node:crypto';
import { Logger } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { LOG_PAGE_SIZE, type LogEntry, type LogPageAnswer } from '@serendip/proto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signedInAdmin } from '../test-support/admins.js';
import { ApiClient } from '../test-support/api-client.js';
import { startTestApp, type TestApp } from '../test-support/test-app.js';
import { videoUser } from '../test-support/video-users.js';
import { PurgeOldLogLines } from './commands/purge-old-log-lines/purge-old-log-lines.command.js';

const DAY_MS = 24 * 60 * 60_000;

/**
 * The admin System Log (spec 2, 4 "Log paging", 7 GET /dash/logs): the lines the app itself logs reach the page,
 * newest first, a page at a time until totalPages, filtered by level; no personal data on them; kept
 * LOG_RETENTION_DAYS (14 by default); for admins only.
 */
describe('System Log: the application log, for admins', () => {
  let test: TestApp;
  let admin: ApiClient;

  beforeAll(async () => {
    // info and above are stored, as under `npm start` (tests default to warn).
    test = await startTestApp({ LOG_LEVEL: 'info' });
    ({ admin } = await signedInAdmin(test));
  }, 60_000);
  afterAll(async () => {
    await test?.close();
  });

  async function logPage(query: string): Promise<LogPageAnswer> {
    const answer = await admin.call('GET', `/dash/logs?${query}`);
    expect(answer.status).toBe(200);
    return answer.body as LogPageAnswer;
  }

  /** Waits until a line whose message holds `text` is stored (the sink writes about once a second). */
  async function storedLine(text: string, query = 'page=1'): Promise<LogEntry> {
    let found: LogEntry | undefined;
    await expect
      .poll(
        async () => {
          found = (await logPage(query)).logs.find((entry) => entry.message.includes(text));
          return found;
        },
        { timeout: 10_000, interval: 200 },
      )
      .toBeDefined();
    return found!;
  }

  it('shows the lines the app logged, newest first, page after page until totalPages, and by level', async () => {
    const tag = `run-${randomUUID().slice(0, 8)}`;
    const logger = new Logger('SystemLogTest');
    for (let n = 1; n <= 120; n++) logger.log(`${tag} line ${n}`);
    logger.warn(`${tag} a warning`);
    logger.error(`${tag} an error`);
    await storedLine(`${tag} an error`);

    // Load More: page 1, 2, ... until the page number reaches totalPages (spec 4).
    const first = await logPage('page=1');
    expect(first).toMatchObject({ success: true, page: 1 });
    expect(first.totalPages).toBeGreaterThanOrEqual(3);
    const pages = [first];
    for (let page = 2; page <= first.totalPages; page++) pages.push(await logPage(`page=${page}`));
    for (const page of pages) expect(page.logs.length).toBeLessThanOrEqual(LOG_PAGE_SIZE);
    expect(pages.slice(0, 3).every((page) => page.logs.length === LOG_PAGE_SIZE)).toBe(true);

    // Lines logged while paging push older ones down a page: the same line may show twice, never be skipped.
    const seen = new Map<string, LogEntry>();
    for (const entry of pages.flatMap((page) => page.logs)) seen.set(entry.id, entry);
    const all = [...seen.values()];
    const times = all.map((entry) => Date.parse(entry.timestamp));
    expect(times).toEqual([...times].sort((a, b) => b - a));
    const ours = all.filter((entry) => entry.message.startsWith(`${tag} `));
    expect(ours.map((entry) => entry.message)).toEqual([
      `${tag} an error`,
      `${tag} a warning`,
      ...Array.from({ length: 120 }, (_, i) => `${tag} line ${120 - i}`),
    ]);
    expect(ours.slice(0, 3).map((entry) => entry.level)).toEqual(['error', 'warn', 'info']);
    for (const entry of all) {
      expect(Object.keys(entry).sort()).toEqual(['id', 'level', 'message', 'timestamp']);
      expect(new Date(entry.timestamp).toISOString()).toBe(entry.timestamp);
    }

    const errors = await logPage('page=1&level=error');
    expect(errors.logs.every((entry) => entry.level === 'error' || entry.level === 'fatal')).toBe(true);
    expect(errors.logs.map((entry) => entry.message)).toContain(`${tag} an error`);
    const warnings = await logPage('level=warn');
    expect(warnings.logs.every((entry) => entry.level === 'warn')).toBe(true);
    expect(warnings.logs.map((entry) => entry.message)).toContain(`${tag} a warning`);
    expect(warnings.totalPages).toBeLessThan(first.totalPages);
  });

  it("shows the app's HTTP lines with the route and status, and past the last page nothing", async () => {
    const path = `/missing-${randomUUID().slice(0, 8)}`;
    expect((await admin.call('GET', path)).status).toBe(404);
    const line = await storedLine(`GET /api${path} 404`, 'level=warn');
    expect(line.message).toMatch(new RegExp(`^request completed: GET /api${path} 404 in \\d+ ms$`));

    // The page's own reads (storedLine polled it above) and health checks stay on stdout, not in the table.
    expect((await new ApiClient(test.base).call('GET', '/health')).status).toBe(200);
    const ownReads = await test.db
      .selectFrom('app_log')
      .select('message')
      .where((eb) =>
        eb.or([
          eb('message', 'like', 'request completed: GET /api/dash/logs 200%'),
          eb('message', 'like', 'request completed: GET /api/health 200%'),
        ]),
      )
      .execute();
    expect(ownReads).toEqual([]);

    const { totalPages } = await logPage('page=1');
    expect((await logPage(`page=${totalPages + 1}`)).logs).toEqual([]);
  });

  it('stores no e-mail address or IP address found in a message', async () => {
    const tag = `pd-${randomUUID().slice(0, 8)}`;
    new Logger('SignInTest').warn(`${tag} sign-in failed for ada.lovelace@example.com from 203.0.113.9 or 2001:db8::7`);
    const line = await storedLine(tag, 'level=warn');
    expect(line.message).toBe(`${tag} sign-in failed for [email] from [ip] or [ip]`);

    const leaked = await test.db
      .selectFrom('app_log')
      .select('message')
      .where((eb) =>
        eb.or([
          eb('message', 'like', '%ada.lovelace@%'),
          eb('message', 'like', '%203.0.113.9%'),
          eb('message', 'like', '%2001:db8::7%'),
        ]),
      )
      .execute();
    expect(leaked).toEqual([]);
  });

  it('deletes lines older than LOG_RETENTION_DAYS (14 by default) and keeps the rest', async () => {
    const tag = `old-${randomUUID().slice(0, 8)}`;
    const at = (daysAgo: number) => new Date(Date.now() - daysAgo * DAY_MS);
    await test.db
      .insertInto('app_log')
      .values([
        { logged_at: at(15), level: 'info', message: `${tag} fifteen days old`, context: null, instance: 'test' },
        { logged_at: at(13), level: 'info', message: `${tag} thirteen days old`, context: null, instance: 'test' },
      ])
      .execute();

    const deleted = await test.app.get(CommandBus).execute(new PurgeOldLogLines(new Date()));
    expect(deleted).toBeGreaterThanOrEqual(1);
    const left = await test.db.selectFrom('app_log').select('message').where('message', 'like', `${tag}%`).execute();
    expect(left.map((row) => row.message)).toEqual([`${tag} thirteen days old`]);
  });

  it('answers 400 to a page or level it does not know', async () => {
    for (const query of ['page=0', 'page=abc', 'page=1.5', 'page=201', 'level=debug', 'page=1&sort=asc']) {
      const answer = await admin.call('GET', `/dash/logs?${query}`);
      expect(answer.status, query).toBe(400);
    }
  });

  it('is for admins only: 403 to a signed-in user, 401 to a guest', async () => {
    const ada = await videoUser(test.base, { confirmed: false });
    expect((await ada.api.call('GET', '/dash/logs?page=1')).status).toBe(403);
    expect((await new ApiClient(test.base).call('GET', '/dash/logs?page=1')).status).toBe(401);
  });
});
