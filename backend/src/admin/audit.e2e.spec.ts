import { randomUUID } from 'node:crypto';
import {
  ADMIN_AUDIT_PATHS,
  type AuditEvent,
  type AuditStreamHistory,
  type AuditTrailPage,
  type AuditUserHistory,
} from '@serendip/proto';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { ApiClient } from '../test-support/api-client.js';
import { signedInAdmin, signedInModerator } from '../test-support/admins.js';
import { reportedAndBanned } from '../test-support/reported-call.js';
import { startTestApp, type TestApp } from '../test-support/test-app.js';
import { VIDEO_USER_PASSWORD, type VideoClient, videoUser } from '../test-support/video-users.js';

/** ADMIN_AUDIT_PATHS carry the /api prefix; ApiClient adds it itself. */
const under = (path: string) => path.slice('/api'.length);

/**
 * The admins' audit API over the real app (spec 6 Admin: admins audit complete histories): a person's every event,
 * newest first, and one stream's history, oldest first, with personal data opened, paged by cursors that hold still
 * while events keep arriving; every read is recorded as a look at the person; admins only.
 */
describe('admin audit API', () => {
  let test: TestApp;
  let admin: ApiClient;
  let adminId: string;
  let moderator: ApiClient;
  const open: VideoClient[] = [];

  beforeAll(async () => {
    test = await startTestApp({ MEDIA_MODE: 'p2p' });
    ({ admin, adminId } = await signedInAdmin(test));
    ({ moderator } = await signedInModerator(test));
  }, 60_000);
  afterEach(() => {
    for (const socket of open.splice(0)) socket.close();
  });
  afterAll(async () => {
    await test?.close();
  });

  const historyOf = async (userId: string, cursor?: string | null, limit?: number) => {
    const res = await admin.call('GET', under(ADMIN_AUDIT_PATHS.user(userId, cursor, limit)));
    expect(res.status).toBe(200);
    return res.body as AuditUserHistory;
  };
  const streamOf = async (stream: string, cursor?: string | null, limit?: number) => {
    const res = await admin.call('GET', under(ADMIN_AUDIT_PATHS.stream(stream, cursor, limit)));
    expect(res.status).toBe(200);
    return res.body as AuditStreamHistory;
  };
  /** Polls the person's newest 100 events until `check` holds (the index follows the log a moment later). */
  const historyUntil = async (userId: string, check: (items: AuditEvent[]) => boolean) => {
    let last: AuditUserHistory | undefined;
    await expect
      .poll(async () => check((last = await historyOf(userId, null, 100)).items), { timeout: 10_000 })
      .toBe(true);
    return last!;
  };
  const looks = (items: AuditEvent[], what: string, stream?: string) =>
    items.filter(
      (e) =>
        e.type === 'StaffViewedUser' &&
        e.data.staffId === adminId &&
        e.data.what === what &&
        (stream === undefined || e.data.stream === stream),
    );

  it('answers 401 to a guest and 403 to a moderator or a member, whatever the parameters', async () => {
    const sam = await videoUser(test.base, { firstName: 'Sam' });
    const paths = [
      ADMIN_AUDIT_PATHS.user(sam.user._id),
      `/api/admin/audit/users/${sam.user._id}?limit=nope`,
      ADMIN_AUDIT_PATHS.stream(`identity-user-${sam.user._id}`),
      '/api/admin/audit/streams/no%20such%20stream?cursor=x',
    ];
    for (const path of paths) {
      expect((await fetch(`${test.base}${path}`)).status).toBe(401);
      expect((await moderator.call('GET', under(path))).status).toBe(403);
      expect((await sam.api.call('GET', under(path))).status).toBe(403);
    }
    expect((await admin.call('GET', under(paths[0]!))).status).toBe(200);

    // The dashboard's trail names each entry's stream for an admin (to open its history), and not for a moderator.
    const trailOf = async (as: ApiClient) =>
      (await as.call('GET', `/dash/users/${sam.user._id}/audit-trail`)).body as AuditTrailPage;
    await expect.poll(async () => (await trailOf(admin)).items.length, { timeout: 10_000 }).toBeGreaterThan(2);
    const byAdmin = await trailOf(admin);
    expect(byAdmin.items.find((e) => e.type === 'UserRegistered')?.stream).toBe(`identity-user-${sam.user._id}`);
    expect(byAdmin.items.every((e) => typeof e.stream === 'string')).toBe(true);
    expect((await trailOf(moderator)).items.some((e) => 'stream' in e)).toBe(false);
  });

  it("opens a person's events for an admin, newest first, never with a password hash or an evidence file, and records the read", async () => {
    const { ada, bob, reportId } = await reportedAndBanned(test, admin, open, '#3c3');

    const history = await historyUntil(bob.user._id, (items) =>
      ['UserRegistered', 'ReportFiled', 'UserBanned'].every((type) => items.some((e) => e.type === type)),
    );
    expect(history.subjectErased).toBe(false);
    expect(history.nextCursor).toBeNull();
    const positions = history.items.map((e) => e.position.split(':').map(BigInt) as [bigint, bigint]);
    const newestFirst = [...positions].sort(([ac, ap], [bc, bp]) =>
      ac !== bc ? (ac > bc ? -1 : 1) : ap > bp ? -1 : 1,
    );
    expect(positions).toEqual(newestFirst);
    const of = (type: string) => history.items.find((e) => e.type === type)!;

    // Each event says where it is in the log, who acted and why, and its fields opened.
    expect(of('UserBanned')).toMatchObject({
      id: expect.any(String),
      stream: `moderation-${bob.user._id}`,
      revision: expect.any(Number),
      position: expect.stringMatching(/^\d+:\d+$/),
      at: expect.any(String),
      actor: { kind: 'user', _id: adminId },
      reason: 'REASON-SECRET harassment',
      data: { userId: bob.user._id, reason: 'REASON-SECRET harassment', reportId },
    });
    expect(of('ReportFiled')).toMatchObject({
      stream: `moderation-report-${reportId}`,
      revision: 0,
      actor: { kind: 'user', _id: ada.user._id, firstName: 'Ada' },
      data: { details: 'DETAILS-SECRET he shouted', screenshot: { sha256: expect.any(String) } },
    });
    expect(of('ReportFiled').data.screenshot).not.toHaveProperty('file');
    expect(of('UserRegistered')).toMatchObject({
      stream: `identity-user-${bob.user._id}`,
      revision: 0,
      actor: { kind: 'system', name: 'anonymous' },
      data: { emailAddress: bob.user.emailAddress },
    });
    expect(of('UserRegistered').data).not.toHaveProperty('passwordHash');
    expect(of('ProfileCompleted').data).toMatchObject({ firstName: 'Bob', lastName: 'Lovelace' });
    const text = JSON.stringify(history);
    expect(text).not.toContain('passwordHash');
    expect(text).not.toContain('"file"');
    expect(text).not.toContain('$personal');

    // The read is a look at Bob, on record in his history and by the admin.
    const after = await historyUntil(bob.user._id, (items) => looks(items, 'audit-trail').length > 0);
    expect(looks(after.items, 'audit-trail')[0]).toMatchObject({
      stream: `admin-staff-${adminId}`,
      actor: { kind: 'user', _id: adminId },
      data: { subjectId: bob.user._id },
    });

    // The report's stream, oldest first: a look at its history is a look at both its parties, Ada and Bob.
    const report = await streamOf(`moderation-report-${reportId}`);
    expect(report.items[0]).toMatchObject({ type: 'ReportFiled', revision: 0, reason: 'harassment' });
    expect(report.items.map((e) => e.revision)).toEqual(report.items.map((_, i) => i));
    expect(JSON.stringify(report)).not.toContain('"file"');
    for (const person of [ada.user._id, bob.user._id]) {
      await historyUntil(
        person,
        (items) => looks(items, 'stream-history', `moderation-report-${reportId}`).length === 1,
      );
    }

    // Once Bob deletes the account, his personal data reads as erased in both views; who did what stays.
    expect((await bob.api.call('POST', '/user/delete-account', { currentPassword: VIDEO_USER_PASSWORD })).status).toBe(
      200,
    );
    const erased = await historyUntil(bob.user._id, (items) => items.some((e) => e.type === 'AccountDeleted'));
    expect(erased.subjectErased).toBe(true);
    expect(erased.items.find((e) => e.type === 'UserBanned')).toMatchObject({
      actor: { kind: 'user', _id: adminId },
      reason: 'erased',
      data: { reason: 'erased', userId: bob.user._id },
    });
    expect(erased.items.find((e) => e.type === 'UserRegistered')?.data).toMatchObject({ emailAddress: 'erased' });
    expect(erased.items.find((e) => e.type === 'ProfileCompleted')?.data).toMatchObject({ lastName: 'erased' });
    const account = await streamOf(`identity-user-${bob.user._id}`);
    expect(account.items[0]).toMatchObject({ type: 'UserRegistered', data: { emailAddress: 'erased' } });
    for (const view of [erased, account]) {
      expect(JSON.stringify(view)).not.toContain('REASON-SECRET');
      expect(JSON.stringify(view)).not.toContain(bob.user.emailAddress);
    }
  }, 60_000);

  it("pages a person's events without a repeat or a gap while new ones are written", async () => {
    const eve = await videoUser(test.base, { firstName: 'Eve' });
    // Each look at her details is an event about her: enough for several pages.
    for (let i = 0; i < 12; i++) expect((await admin.call('GET', `/dash/users/${eve.user._id}`)).status).toBe(200);
    await historyUntil(eve.user._id, (items) => items.length >= 15);

    const seen: AuditEvent[] = [];
    let page = await historyOf(eve.user._id, null, 4);
    const top = page.items[0]!.position;
    for (let turns = 0; ; turns++) {
      expect(turns).toBeLessThan(20);
      expect(page.items.length).toBeLessThanOrEqual(4);
      seen.push(...page.items);
      if (!page.nextCursor) break;
      // Between pages more is written about her: looks at her details, and this read's own record.
      expect((await admin.call('GET', `/dash/users/${eve.user._id}`)).status).toBe(200);
      page = await historyOf(eve.user._id, page.nextCursor, 4);
    }
    const ids = seen.map((e) => e.id);
    expect(new Set(ids).size).toBe(ids.length);
    expect(seen.at(-1)?.type).toBe('UserRegistered');
    // Every event up to the first page's newest, in one read now: exactly what the pages showed, in the same order.
    const [topCommit, topPrepare] = top.split(':').map(BigInt) as [bigint, bigint];
    const all = await historyUntil(eve.user._id, (items) => looks(items, 'audit-trail').length >= 4);
    expect(all.nextCursor).toBeNull();
    const upToTop = all.items.filter((e) => {
      const [commit, prepare] = e.position.split(':').map(BigInt) as [bigint, bigint];
      return commit < topCommit || (commit === topCommit && prepare <= topPrepare);
    });
    expect(upToTop.map((e) => e.id)).toEqual(ids);
    expect(all.items.length).toBeGreaterThan(ids.length);
  }, 60_000);

  it("pages one stream's history oldest first, on through events appended meanwhile, and records a look at whom it is about", async () => {
    const kim = await videoUser(test.base, { firstName: 'Kim' });
    const stream = `identity-user-${kim.user._id}`;
    const revisions: number[] = [];
    let page = await streamOf(stream, null, 2);
    expect(page.stream).toBe(stream);
    expect(page.items[0]).toMatchObject({
      type: 'UserRegistered',
      revision: 0,
      data: { emailAddress: kim.user.emailAddress },
    });
    for (let turns = 0; ; turns++) {
      expect(turns).toBeLessThan(20);
      revisions.push(...page.items.map((e) => e.revision));
      if (!page.nextCursor) break;
      // Kim edits her profile twice between the pages: the stream grows as fast as it is read.
      for (const n of turns < 3 ? [2 * turns, 2 * turns + 1] : []) {
        const edited = await kim.api.call('POST', '/user/edit-profile', { bio: `BIO-${n}` });
        expect(edited.status).toBe(200);
      }
      page = await streamOf(stream, page.nextCursor, 2);
    }
    // Every revision once, in order, the edits made while paging included.
    expect(revisions).toEqual(revisions.map((_, i) => i));
    const whole = await streamOf(stream, null, 100);
    expect(whole.items.map((e) => e.revision)).toEqual(revisions);
    expect(whole.items.filter((e) => e.type === 'ProfileEdited').map((e) => e.data.bio)).toEqual(
      [0, 1, 2, 3, 4, 5].map((n) => `BIO-${n}`),
    );
    // Past the end: nothing yet, not an error.
    expect((await streamOf(stream, whole.items.at(-1)!.revision.toString())).items).toEqual([]);

    // The stream is about Kim: each read is a look at her, naming the stream; not at anyone else.
    const history = await historyUntil(kim.user._id, (items) => looks(items, 'stream-history', stream).length >= 2);
    expect(looks(history.items, 'stream-history', stream)[0]).toMatchObject({ data: { subjectId: kim.user._id } });
    // The admin's own record of looks: every look at this stream was at Kim.
    const mine: AuditEvent[] = [];
    for (let cursor: string | null = null, turns = 0; turns === 0 || cursor; turns++) {
      const part: AuditStreamHistory = await streamOf(`admin-staff-${adminId}`, cursor, 100);
      mine.push(...part.items);
      cursor = part.nextCursor;
    }
    const atStream = mine.filter((e) => e.data.stream === stream);
    expect(atStream.length).toBeGreaterThanOrEqual(revisions.length / 2);
    expect(new Set(atStream.map((e) => e.data.subjectId))).toEqual(new Set([kim.user._id]));
  }, 60_000);

  it('answers 400 for a malformed stream name or paging parameter, and 404 for an unknown stream or person', async () => {
    const someone = await videoUser(test.base, { firstName: 'Rae' });
    const bad = async (path: string, message: string) => {
      const res = await admin.call('GET', path);
      expect(res.status, path).toBe(400);
      expect(res.body).toMatchObject({ statusCode: 400, message: expect.arrayContaining([message]) });
    };
    await bad(`/admin/audit/users/${someone.user._id}?limit=0`, 'limit must be at least 1');
    await bad(`/admin/audit/users/${someone.user._id}?limit=101`, 'limit must be at most 100');
    await bad(`/admin/audit/users/${someone.user._id}?limit=ten`, 'limit must be a whole number');
    await bad(
      `/admin/audit/users/${someone.user._id}?cursor=yesterday`,
      'cursor must be the nextCursor of an earlier answer',
    );
    await bad(
      `/admin/audit/users/${someone.user._id}?cursor=99999999999999999999:1`,
      'cursor must be the nextCursor of an earlier answer',
    );
    await bad(`/admin/audit/users/${someone.user._id}?page=2`, 'property page should not exist');
    const named = 'stream must be a stream name, such as identity-user-<id>';
    await bad('/admin/audit/streams/%24all', named);
    await bad('/admin/audit/streams/Identity-User-x', named);
    await bad(`/admin/audit/streams/${encodeURIComponent('identity user')}`, named);
    await bad('/admin/audit/streams/identity', named);
    await bad(`/admin/audit/streams/${'a-'.repeat(100)}a`, 'stream must be at most 200 characters');
    await bad(
      `/admin/audit/streams/identity-user-${someone.user._id}?cursor=-1`,
      'cursor must be the nextCursor of an earlier answer',
    );

    const unknown = `identity-user-${randomUUID()}`;
    const missing = await admin.call('GET', `/admin/audit/streams/${unknown}`);
    expect(missing.status).toBe(404);
    expect(missing.body).toMatchObject({ statusCode: 404, message: `There is no stream named ${unknown}.` });
    expect((await admin.call('GET', `/admin/audit/users/${randomUUID()}`)).status).toBe(404);
    expect((await admin.call('GET', '/admin/audit/users/not-a-uuid')).status).toBe(404);
  });
});
