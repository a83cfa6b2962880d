import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import {
  type AppealQueueChangedPush,
  type DashAppealsPage,
  type DashReport,
  ONLY_ADMINS_DECIDE_APPEAL,
  OWN_BAN_APPEAL,
  type ReportListedPush,
  REVIEW_REPORT_ABOUT_YOU,
  REVIEW_REPORT_YOU_FILED,
} from '@serendip/proto';
import sharp from 'sharp';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { madeModerator, signedInAdmin, signedInModerator } from '../test-support/admins.js';
import type { ApiClient } from '../test-support/api-client.js';
import { startTestApp, type TestApp } from '../test-support/test-app.js';
import {
  ANYONE,
  nextEvent,
  openSystemSocket,
  type SystemClient,
  type VideoClient,
  videoUser,
} from '../test-support/video-users.js';

/**
 * The dashboard's report table and appeals queue over the real app (spec 2 "Reports page", spec 7 GET
 * /dash/report/get-all): the spec's array of reports, paged and filtered with the paging in headers; staff only; a
 * report filed or reviewed reaches every staff socket at once and nobody else's; the appeals queue shows each pending
 * appeal with its ban and the report it rests on.
 */
describe('dashboard: reports and appeals', () => {
  let test: TestApp;
  let dataDir: string;
  let admin: ApiClient;
  let adminId: string;
  const open: (VideoClient | SystemClient)[] = [];

  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(os.tmpdir(), 'serendip-dash-reports-'));
    test = await startTestApp({ MEDIA_MODE: 'p2p', DATA_DIR: dataDir });
    ({ admin, adminId } = await signedInAdmin(test));
  }, 60_000);
  afterEach(() => {
    for (const socket of open.splice(0)) socket.close();
  });
  afterAll(async () => {
    await test?.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  /** Ada and Bob in a call, Ada's screenshot uploaded; the call's id. */
  async function callWithScreenshot(names = { reporter: 'Ada', reported: 'Bob' }) {
    const ada = await videoUser(test.base, { firstName: names.reporter, gender: 'female' });
    const bob = await videoUser(test.base, { firstName: names.reported, gender: 'male' });
    const [adaSocket, bobSocket] = [await ada.connect(), await bob.connect()];
    open.push(adaSocket, bobSocket);
    const adaFound = nextEvent(adaSocket, 'matchFound');
    await adaSocket.emitWithAck('startMatching', { filters: ANYONE, deviceType: 'desktop' });
    await bobSocket.emitWithAck('startMatching', { filters: ANYONE, deviceType: 'desktop' });
    const { matchId } = await adaFound;
    await expect
      .poll(() => test.db.selectFrom('matches').select('match_id').where('match_id', '=', matchId).executeTakeFirst())
      .toBeDefined();
    const jpeg = await sharp({ create: { width: 320, height: 180, channels: 3, background: '#c83232' } })
      .jpeg()
      .toBuffer();
    const uploaded = await fetch(`${test.base}/api/report/screenshots`, {
      method: 'POST',
      headers: { Cookie: ada.api.cookieHeader(), 'X-Forwarded-For': ada.api.ip, 'Content-Type': 'image/jpeg' },
      body: new Uint8Array(jpeg),
    });
    const { screenshotId } = (await uploaded.json()) as { screenshotId: string };
    return { ada, bob, matchId, screenshotId };
  }

  /** Reports straight into the read model, numbered after what is there (the paging needs many). */
  async function seedReports(rows: { severity: string; reason: string; status?: string; minutesAgo: number }[]) {
    const { max } = await test.db
      .selectFrom('moderation_reports')
      .select((eb) => eb.fn.max('report_no').as('max'))
      .executeTakeFirstOrThrow();
    let no = Number(max ?? 0);
    await test.db
      .insertInto('moderation_reports')
      .values(
        rows.map((r) => ({
          report_id: randomUUID(),
          match_id: randomUUID(),
          reporter_id: randomUUID(),
          reported_id: randomUUID(),
          reason: r.reason,
          severity: r.severity,
          filed_at: new Date(Date.now() - r.minutesAgo * 60_000),
          status: (r.status ?? 'open') as 'open',
          report_no: ++no,
        })),
      )
      .execute();
  }

  it('lists the spec’s report shape, newest first, 25 a page, filtered, with the paging in headers; staff only', async () => {
    await seedReports(
      Array.from({ length: 30 }, (_, i) => ({
        severity: i % 3 === 0 ? 'high' : 'low',
        reason: i % 3 === 0 ? 'harassment' : 'spam',
        status: i < 4 ? 'dismissed' : 'open',
        minutesAgo: 100 + i,
      })),
    );

    const first = await admin.call('GET', '/dash/report/get-all');
    expect(first.status).toBe(200);
    const page1 = first.body as DashReport[];
    expect(Array.isArray(page1)).toBe(true);
    expect(page1).toHaveLength(25);
    expect(first.headers.get('X-Total-Count')).toBe('30');
    expect(first.headers.get('X-Total-Pages')).toBe('2');
    expect(page1[0]).toMatchObject({
      _id: expect.any(String),
      type: 'videosession',
      reason: expect.any(String),
      severity: expect.any(String),
      // Seeded reporters have no account: named as erased, not a failure.
      reportedByWho: { _id: expect.any(String), firstName: null, erased: true },
      reportedUser: { _id: expect.any(String), firstName: null, erased: true },
      createdAt: expect.any(String),
      status: expect.any(String),
    });
    const times = page1.map((r) => Date.parse(r.createdAt));
    expect(times).toEqual([...times].sort((a, b) => b - a));
    const numbers = page1.map((r) => r.number);
    expect(new Set(numbers).size).toBe(25);

    const second = await admin.call('GET', '/dash/report/get-all?page=2');
    expect((second.body as DashReport[]).map((r) => r.number)).not.toContain(numbers[0]);
    expect(second.body).toHaveLength(5);

    const open = await admin.call('GET', '/dash/report/get-all?status=open&severity=high');
    expect(open.headers.get('X-Total-Count')).toBe('8');
    expect((open.body as DashReport[]).every((r) => r.status === 'open' && r.severity === 'high')).toBe(true);
    const dismissed = await admin.call('GET', '/dash/report/get-all?status=dismissed&reason=spam');
    expect(dismissed.headers.get('X-Total-Count')).toBe('2');
    const none = await admin.call('GET', '/dash/report/get-all?page=9');
    expect(none).toMatchObject({ status: 200, body: [] });
    expect(none.headers.get('X-Total-Pages')).toBe('2');

    expect((await admin.call('GET', '/dash/report/get-all?status=closed')).body).toMatchObject({
      statusCode: 400,
      message: [expect.stringContaining('status must be one of')],
    });
    expect((await admin.call('GET', '/dash/report/get-all?page=0')).status).toBe(400);
    expect((await admin.call('GET', '/dash/report/get-all?sort=x')).status).toBe(400);

    const someone = await videoUser(test.base, { firstName: 'Nosy' });
    expect((await someone.api.call('GET', '/dash/report/get-all')).status).toBe(403);
    expect((await someone.api.call('GET', '/dash/appeals')).status).toBe(403);
  });

  it('pushes a filed report to staff sockets only, with the names and the screenshot; and its review', async () => {
    const { ada, bob, matchId, screenshotId } = await callWithScreenshot();
    const adminSocket = await openSystemSocket(test.base, admin);
    const adaSocket = await openSystemSocket(test.base, ada.api);
    open.push(adminSocket, adaSocket);
    const staffHears: ReportListedPush[] = [];
    const adaHears: unknown[] = [];
    adminSocket.on('reportFiled', (push) => staffHears.push(push));
    adminSocket.on('reportResolved', (push) => staffHears.push(push));
    adaSocket.on('reportFiled', (push) => adaHears.push(push));
    adaSocket.on('reportResolved', (push) => adaHears.push(push));

    const filed = await ada.api.call('POST', '/report/submit-report', {
      matchId,
      reason: 'harassment',
      severity: 'high',
      screenshot: screenshotId,
    });
    expect(filed.status).toBe(201);
    const { reportId } = filed.body as { reportId: string };

    await expect.poll(() => staffHears.length).toBe(1);
    expect(staffHears[0]).toMatchObject({
      eventId: expect.any(String),
      _id: reportId,
      type: 'videosession',
      reason: 'harassment',
      severity: 'high',
      status: 'open',
      reportedByWho: { _id: ada.user._id, firstName: 'Ada' },
      reportedUser: { _id: bob.user._id, firstName: 'Bob' },
      screenshot: `/api/admin/reports/${reportId}/screenshot`,
    });
    // The table's first row is the same report, and its screenshot opens for staff.
    const [row] = (await admin.call('GET', '/dash/report/get-all?status=open')).body as DashReport[];
    // The list says whether this viewer may review it; the push, heard by all staff alike, does not.
    expect(row).toEqual({
      ...Object.fromEntries(Object.entries(staffHears[0]!).filter(([k]) => k !== 'eventId')),
      canReview: true,
    });
    const picture = await fetch(`${test.base}${row!.screenshot}`, {
      headers: { Cookie: admin.cookieHeader(), 'X-Forwarded-For': admin.ip },
    });
    expect(picture.status).toBe(200);
    expect(picture.headers.get('content-type')).toBe('image/jpeg');

    expect((await admin.call('POST', `/admin/reports/${reportId}/resolve`, { outcome: 'dismissed' })).status).toBe(200);
    await expect.poll(() => staffHears.length).toBe(2);
    expect(staffHears[1]).toMatchObject({ _id: reportId, status: 'dismissed' });
    // Nobody but staff heard either.
    await new Promise((r) => setTimeout(r, 300));
    expect(adaHears).toEqual([]);
  });

  it('lists pending appeals, oldest first, with the ban and the report it acted on; a decided one leaves', async () => {
    const { ada, bob, matchId, screenshotId } = await callWithScreenshot({ reporter: 'Cleo', reported: 'Dan' });
    const filed = await ada.api.call('POST', '/report/submit-report', {
      matchId,
      reason: 'scamming',
      severity: 'medium',
      screenshot: screenshotId,
    });
    const { reportId } = filed.body as { reportId: string };
    const suggestion = (await admin.call('GET', `/admin/users/${bob.user._id}/penalty-suggestion?level=moderate`))
      .body as { kind: 'restriction'; days: number };
    const banned = await admin.call('POST', `/admin/users/${bob.user._id}/ban`, {
      reason: 'Asked for money',
      level: 'moderate',
      penalty: { kind: suggestion.kind, days: suggestion.days },
      reportId,
    });
    expect(banned.status).toBe(201);
    const { caseId } = banned.body as { caseId: string };
    expect(((await admin.call('GET', '/dash/appeals')).body as DashAppealsPage).items).toEqual([]);

    // An open Appeals page hears the queue change (filed, then decided) and loads it again; nobody else hears it.
    const adminSocket = await openSystemSocket(test.base, admin);
    const adaSocket = await openSystemSocket(test.base, ada.api);
    open.push(adminSocket, adaSocket);
    const staffHears: AppealQueueChangedPush[] = [];
    const adaHears: unknown[] = [];
    adminSocket.on('appealQueueChanged', (push) => staffHears.push(push));
    adaSocket.on('appealQueueChanged', (push) => adaHears.push(push));

    const explanation = 'That was a joke between friends.';
    expect(
      (await bob.api.call('PUT', `/user/appeal-ban/${bob.user._id}`, { appealExplanation: explanation })).status,
    ).toBe(200);
    await expect.poll(() => staffHears.length).toBe(1);
    expect(staffHears[0]).toMatchObject({ caseId, eventId: expect.any(String) });
    const queue = (await admin.call('GET', '/dash/appeals')).body as DashAppealsPage;
    expect(queue).toMatchObject({ page: 1, total: 1, totalPages: 1 });
    // The admin's account is live (no first name given): not shown as erased.
    expect(queue.items[0]!.bannedBy.erased).toBeUndefined();
    expect(queue.items[0]).toMatchObject({
      caseId,
      user: { _id: bob.user._id, firstName: 'Dan' },
      reason: 'Asked for money',
      level: 'moderate',
      bannedAt: expect.any(String),
      expiresAt: expect.any(String),
      bannedBy: { _id: adminId },
      appealExplanation: explanation,
      appealedAt: expect.any(String),
      evidence: [
        {
          _id: reportId,
          reason: 'scamming',
          status: 'actioned',
          caseId,
          reportedByWho: { _id: ada.user._id, firstName: 'Cleo' },
          screenshot: `/api/admin/reports/${reportId}/screenshot`,
        },
      ],
    });

    expect(
      (await admin.call('POST', `/admin/bans/${caseId}/appeal`, { outcome: 'approved', note: 'A misunderstanding' }))
        .status,
    ).toBe(200);
    expect((await admin.call('GET', '/dash/appeals')).body).toMatchObject({ items: [], total: 0 });
    expect((await admin.call('GET', '/dash/appeals?page=x')).status).toBe(400);
    await expect.poll(() => staffHears.length).toBe(2);
    expect(staffHears[1]).toMatchObject({ caseId });
    expect(adaHears).toEqual([]);
  });
  it('leaves a moderator the appeals of short bans of plain users that another moderator decided; the rest are an admin’s', async () => {
    const { moderator } = await signedInModerator(test);
    const other = await signedInAdmin(test);
    const roleOf = (userId: string, role: 'user' | 'moderator' | 'admin') =>
      test.db
        .updateTable('users')
        .set({ role, is_admin: role === 'admin' })
        .where('user_id', '=', userId)
        .execute();
    /** A new person banned by `by` with `penalty`, who appealed: the case id. */
    async function appealedBan(by: ApiClient, penalty: unknown, name: string) {
      const person = await videoUser(test.base, { firstName: name });
      const banned = await by.call('POST', `/admin/users/${person.user._id}/ban`, {
        reason: 'Rude on camera',
        level: 'severe',
        penalty,
        overrideReason: 'Chosen by the test',
      });
      expect(banned.status).toBe(201);
      const appeal = await person.api.call('PUT', `/user/appeal-ban/${person.user._id}`, {
        appealExplanation: 'I was not there.',
      });
      expect(appeal.status).toBe(200);
      return { caseId: (banned.body as { caseId: string }).caseId, userId: person.user._id };
    }
    const short = await appealedBan(moderator, { kind: 'restriction', days: 7 }, 'Short');
    const byAdmin = await appealedBan(admin, { kind: 'restriction', days: 1 }, 'ByAdmin');
    const permanent = await appealedBan(admin, { kind: 'permanent' }, 'Forever');
    // Longer than 30 days, by an admin since made a plain user: its length alone keeps it an admin's.
    const long = await appealedBan(other.admin, { kind: 'restriction', days: 60 }, 'Long');
    await roleOf(other.adminId, 'user');
    // A moderator's short ban of someone who has since become staff: staff are an admin's.
    const staff = await appealedBan(moderator, { kind: 'restriction', days: 3 }, 'Staffer');
    await roleOf(staff.userId, 'moderator');

    const decidable = async (as: ApiClient) => {
      const res = await as.call('GET', '/dash/appeals');
      expect(res.status).toBe(200);
      const items = (res.body as DashAppealsPage).items;
      return new Map(items.map((a) => [a.caseId, a.canDecide]));
    };
    // The short ban is the moderator's own: a colleague decides its appeal (a review is another's look).
    const { moderator: colleague } = await signedInModerator(test);
    const seenByModerator = await decidable(moderator);
    const seenByColleague = await decidable(colleague);
    expect([short, byAdmin, permanent, long, staff].map((c) => seenByModerator.get(c.caseId))).toEqual([
      false,
      false,
      false,
      false,
      false,
    ]);
    expect([short, byAdmin, permanent, long, staff].map((c) => seenByColleague.get(c.caseId))).toEqual([
      true,
      false,
      false,
      false,
      false,
    ]);
    const seenByAdmin = await decidable(admin);
    expect([short, byAdmin, permanent, long, staff].every((c) => seenByAdmin.get(c.caseId) === true)).toBe(true);

    for (const { caseId } of [byAdmin, permanent, long, staff]) {
      const refused = await moderator.call('POST', `/admin/bans/${caseId}/appeal`, {
        outcome: 'approved',
        note: 'Looks fine to me',
      });
      expect(refused.body).toMatchObject({ statusCode: 403, message: ONLY_ADMINS_DECIDE_APPEAL });
    }
    const ownBan = await moderator.call('POST', `/admin/bans/${short.caseId}/appeal`, {
      outcome: 'rejected',
      note: 'I stand by it',
    });
    expect(ownBan.body).toMatchObject({ statusCode: 403, message: OWN_BAN_APPEAL });
    // The refused appeals are still waiting; the colleague decides the short one, the admin the others, its own ban
    // included: an admin is the final authority (a one-admin team must still decide).
    expect((await decidable(admin)).has(byAdmin.caseId)).toBe(true);
    expect((await decidable(admin)).has(short.caseId)).toBe(true);
    const decided = await colleague.call('POST', `/admin/bans/${short.caseId}/appeal`, {
      outcome: 'approved',
      note: 'A misunderstanding',
    });
    expect(decided.status).toBe(200);
    expect(
      (await admin.call('POST', `/admin/bans/${byAdmin.caseId}/appeal`, { outcome: 'rejected', note: 'It stands' }))
        .status,
    ).toBe(200);
    const left = await decidable(admin);
    expect(left.has(short.caseId)).toBe(false);
    expect(left.has(byAdmin.caseId)).toBe(false);
    for (const { caseId } of [permanent, long, staff]) {
      expect(
        (await admin.call('POST', `/admin/bans/${caseId}/appeal`, { outcome: 'rejected', note: 'Stands' })).status,
      ).toBe(200);
    }
  }, 60_000);
  it('lets nobody review a report about themselves or one they filed; the table says so; the admin reviews both', async () => {
    const { ada, bob, matchId } = await callWithScreenshot({ reporter: 'Eve', reported: 'Mona' });
    const about = await ada.api.call('POST', '/report/submit-report', {
      matchId,
      reason: 'harassment',
      severity: 'high',
    });
    const filed = await bob.api.call('POST', '/report/submit-report', { matchId, reason: 'spam', severity: 'low' });
    expect([about.status, filed.status]).toEqual([201, 201]);
    const aboutId = (about.body as { reportId: string }).reportId;
    const filedId = (filed.body as { reportId: string }).reportId;
    // Bob ("Mona") is staff now: the report about her and the one she filed are others' to review.
    const mona = await madeModerator(test, bob);

    const listed = async (as: ApiClient) => {
      const rows = (await as.call('GET', '/dash/report/get-all?status=open')).body as DashReport[];
      return new Map(rows.map((r) => [r._id, r.canReview]));
    };
    const seenByMona = await listed(mona);
    expect([seenByMona.get(aboutId), seenByMona.get(filedId)]).toEqual([false, false]);
    const seenByAdmin = await listed(admin);
    expect([seenByAdmin.get(aboutId), seenByAdmin.get(filedId)]).toEqual([true, true]);

    const dismissed = await mona.call('POST', `/admin/reports/${aboutId}/resolve`, { outcome: 'dismissed' });
    expect(dismissed.body).toMatchObject({ statusCode: 403, message: REVIEW_REPORT_ABOUT_YOU });
    const markedFalse = await mona.call('POST', `/admin/reports/${filedId}/resolve`, {
      outcome: 'false',
      note: 'Made up',
    });
    expect(markedFalse.body).toMatchObject({ statusCode: 403, message: REVIEW_REPORT_YOU_FILED });
    // A ban acting on her own report is refused before anyone is banned.
    const banned = await mona.call('POST', `/admin/users/${ada.user._id}/ban`, {
      reason: 'Spam',
      level: 'minor',
      penalty: { kind: 'restriction', days: 1 },
      overrideReason: 'Chosen by the test',
      reportId: filedId,
    });
    expect(banned.body).toMatchObject({ statusCode: 403, message: REVIEW_REPORT_YOU_FILED });
    expect(
      await test.db.selectFrom('moderation_bans').select('case_id').where('user_id', '=', ada.user._id).execute(),
    ).toEqual([]);
    expect((await listed(admin)).has(aboutId) && (await listed(admin)).has(filedId)).toBe(true);

    expect((await admin.call('POST', `/admin/reports/${aboutId}/resolve`, { outcome: 'dismissed' })).status).toBe(200);
    expect(
      (await admin.call('POST', `/admin/reports/${filedId}/resolve`, { outcome: 'false', note: 'Nothing in the call' }))
        .status,
    ).toBe(200);
  }, 60_000);
});
