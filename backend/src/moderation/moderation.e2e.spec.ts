import { createHash, randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { CommandBus } from '@nestjs/cqrs';
import type { BanHistoryEntry, BanInfo, BanStatusUpdatedPush, UserInfo } from '@serendip/proto';
import sharp from 'sharp';
import { Manager } from 'socket.io-client';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { signedInAdmin, signedInModerator, signInWithCode } from '../test-support/admins.js';
import { ApiClient } from '../test-support/api-client.js';
import { startTestApp, type TestApp } from '../test-support/test-app.js';
import {
  ANYONE,
  nextEvent,
  openSystemSocket,
  type SystemClient,
  type VideoClient,
  devOutbox,
  VIDEO_USER_PASSWORD,
  type VideoUser,
  videoUser,
} from '../test-support/video-users.js';
import { BanUser } from './commands/ban-user/ban-user.command.js';

/** A camera frame as the Report dialog captures it: a JPEG carrying EXIF (with a place) the server must strip. */
const capture = () =>
  sharp({ create: { width: 640, height: 360, channels: 3, background: { r: 200, g: 40, b: 40 } } })
    .jpeg({ quality: 85 })
    .withExif({ IFD0: { Make: 'SpyCam', Copyright: 'Ada at 51.5N 0.1W' } })
    .toBuffer();

/**
 * Moderation over the real app (spec 2 "Report User dialog", "Banned-account screen", 4 Ban/Appeal, 7): reports name a
 * call and the server finds who was in it; bans follow the penalty policy, end the call and lock every route but the
 * banned screen's; one appeal; a timed ban ends on its own; every step is in the user's trail.
 */
describe('moderation: reports, bans, appeals', () => {
  let test: TestApp;
  let dataDir: string;
  let admin: ApiClient;
  let adminId: string;
  const open: (VideoClient | SystemClient)[] = [];

  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(os.tmpdir(), 'serendip-moderation-'));
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

  /** Ada and Bob in a call; their sockets and the call's id. */
  async function call() {
    const ada = await videoUser(test.base, { firstName: 'Ada', gender: 'female' });
    const bob = await videoUser(test.base, { firstName: 'Bob', gender: 'male' });
    const [adaSocket, bobSocket] = [await ada.connect(), await bob.connect()];
    open.push(adaSocket, bobSocket);
    const adaFound = nextEvent(adaSocket, 'matchFound');
    await adaSocket.emitWithAck('startMatching', { filters: ANYONE, deviceType: 'desktop' });
    await bobSocket.emitWithAck('startMatching', { filters: ANYONE, deviceType: 'desktop' });
    const match = await adaFound;
    // The call reaches the read model reports are checked against a moment later.
    await expect
      .poll(() =>
        test.db.selectFrom('matches').select('match_id').where('match_id', '=', match.matchId).executeTakeFirst(),
      )
      .toBeDefined();
    return { ada, bob, adaSocket, bobSocket, matchId: match.matchId, partnerId: match.partnerId };
  }

  async function upload(as: VideoUser, bytes: Buffer, type = 'image/jpeg') {
    const res = await fetch(`${test.base}/api/report/screenshots`, {
      method: 'POST',
      headers: { Cookie: as.api.cookieHeader(), 'X-Forwarded-For': as.api.ip, 'Content-Type': type },
      body: new Uint8Array(bytes),
    });
    return {
      status: res.status,
      body: (await res.json()) as { screenshotId: string; sha256: string; message?: unknown },
    };
  }

  function banPushes(socket: SystemClient): BanStatusUpdatedPush[] {
    const seen: BanStatusUpdatedPush[] = [];
    socket.on('banStatusUpdated', (push) => seen.push(push));
    return seen;
  }

  it("files a report naming the call: the server finds who was reported, keeps the reporter's screenshot re-encoded and checksummed, and refuses spoofing, strangers and repeats", async () => {
    const { ada, bob, matchId, partnerId } = await call();
    const eve = await videoUser(test.base, { firstName: 'Eve' });

    const shot = await upload(ada, await capture());
    expect(shot.status).toBe(201);
    const notAPicture = await upload(ada, Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>'), 'image/png');
    expect(notAPicture).toMatchObject({
      status: 400,
      body: { message: ['screenshot: must be a JPEG, PNG or WebP picture'] },
    });

    const report = { matchId, reportedUser: partnerId, reason: 'harassment', severity: 'high', type: 'videosession' };
    // The reporter is the signed-in user: a body that names one is refused, not believed.
    const spoofed = await ada.api.call('POST', '/report/submit-report', { ...report, reportedByWho: eve.user._id });
    expect(spoofed.status).toBe(400);
    // Someone who was not in the call cannot report it, nor use another's screenshot.
    expect((await eve.api.call('POST', '/report/submit-report', report)).status).toBe(403);
    expect(
      (await eve.api.call('POST', '/report/submit-report', { ...report, screenshot: shot.body.screenshotId })).status,
    ).toBe(403);
    expect((await ada.api.call('POST', '/report/submit-report', { ...report, reason: 'rude' })).body).toMatchObject({
      message: ['Please provide a reason for the report.'],
    });

    const filed = await ada.api.call('POST', '/report/submit-report', {
      ...report,
      screenshot: shot.body.screenshotId,
      details: 'Shouted slurs at me',
    });
    expect(filed).toMatchObject({ status: 201, body: { message: 'Report submitted successfully' } });
    expect((await ada.api.call('POST', '/report/submit-report', report)).status).toBe(409);

    const queue = (await admin.call('GET', '/admin/reports')).body as Record<string, unknown>[];
    const listed = queue.find((r) => r.reportId === filed.body.reportId)!;
    expect(listed).toMatchObject({
      matchId,
      reportedByWho: ada.user._id,
      reportedUser: bob.user._id,
      reason: 'harassment',
      severity: 'high',
      status: 'open',
      screenshotSha256: shot.body.sha256,
    });
    // The file the log names is the one the reporter uploaded, its metadata gone.
    const stored = await fetch(`${test.base}${listed.screenshot as string}`, {
      headers: { Cookie: admin.cookieHeader(), 'X-Forwarded-For': admin.ip },
    });
    const bytes = Buffer.from(await stored.arrayBuffer());
    expect(createHash('sha256').update(bytes).digest('hex')).toBe(shot.body.sha256);
    expect((await sharp(bytes).metadata()).exif).toBeUndefined();
    // Only admins see evidence; the look is on the report's record.
    const peek = await fetch(`${test.base}${listed.screenshot as string}`, {
      headers: { Cookie: eve.api.cookieHeader(), 'X-Forwarded-For': eve.api.ip },
    });
    expect(peek.status).toBe(403);
    const trail = (await admin.call('GET', `/admin/users/${bob.user._id}/moderation-trail`)).body as {
      type: string;
      actor: string;
    }[];
    expect(trail.map((e) => [e.type, e.actor])).toEqual([
      ['ReportFiled', ada.user._id],
      ['ReportScreenshotViewed', adminId],
    ]);
  });

  it("bans under the penalty policy: the call ends at once, every route but the banned screen's answers 403, one appeal, and an approved appeal lets them match again", async () => {
    const { ada, bob, adaSocket, bobSocket } = await call();
    const bobSystem = await openSystemSocket(test.base, bob.api);
    const adaSystem = await openSystemSocket(test.base, ada.api);
    open.push(bobSystem, adaSystem);
    const bobHears = banPushes(bobSystem);
    const adaHears = banPushes(adaSystem);

    const suggestion = await admin.call('GET', `/admin/users/${bob.user._id}/penalty-suggestion?level=moderate`);
    expect(suggestion.body).toEqual({
      kind: 'restriction',
      tier: 1,
      days: 1,
      explanation: 'A first moderate violation: 24 hours.',
    });
    // Another penalty than the policy's needs a stated reason.
    const harsher = { reason: 'Harassment in a call', level: 'moderate', penalty: { kind: 'restriction', days: 7 } };
    expect((await admin.call('POST', `/admin/users/${bob.user._id}/ban`, harsher)).status).toBe(400);
    // Only admins ban.
    expect((await ada.api.call('POST', `/admin/users/${bob.user._id}/ban`, harsher)).status).toBe(403);

    const partnerLeft = nextEvent(adaSocket, 'partnerDisconnected');
    const bobError = nextEvent(bobSocket, 'videoError');
    const banned = await admin.call('POST', `/admin/users/${bob.user._id}/ban`, {
      ...harsher,
      penalty: { kind: 'restriction', days: 1 },
    });
    expect(banned.status).toBe(201);
    const { caseId } = banned.body as { caseId: string };
    expect(await partnerLeft).toMatchObject({ reason: 'ban' });
    expect(await bobError).toMatchObject({ code: 'banned' });
    await expect.poll(() => bobHears).toEqual([expect.objectContaining({ userId: bob.user._id, isBanned: true })]);
    expect(adaHears).toEqual([]);

    // The banned screen's calls answer; everything else is 403 with the reason.
    expect(((await bob.api.call('GET', '/auth/user-info')).body as UserInfo).isBanned).toBe(true);
    expect((await bob.api.call('POST', '/user/edit-profile', { bio: 'hello' })).body).toMatchObject({
      statusCode: 403,
      message: 'Your account is restricted.',
    });
    expect((await bob.api.call('GET', '/report/recent-calls')).status).toBe(403);
    const avatarUpload = await fetch(`${test.base}/api/uploads/avatars`, {
      method: 'POST',
      headers: {
        Cookie: bob.api.cookieHeader(),
        'X-Forwarded-For': bob.api.ip,
        'Tus-Resumable': '1.0.0',
        'Upload-Length': '100',
      },
    });
    expect(avatarUpload.status).toBe(403);
    await expect(bob.connect()).rejects.toMatchObject({ data: { code: 'banned' } });
    const info = (await bob.api.call('GET', `/user/ban-info/${bob.user._id}`)).body as BanInfo;
    expect(info).toMatchObject({
      isBanned: true,
      ban: {
        caseId,
        reason: 'Harassment in a call',
        bannedUser: { firstName: 'Bob' },
        appealStatus: 'none',
        expiryDate: expect.any(String),
      },
    });
    expect(Date.parse(info.ban!.expiryDate!) - Date.parse(info.ban!.banDate)).toBe(86_400_000);
    // Nobody else's ban: not to see, not to appeal.
    expect((await ada.api.call('GET', `/user/ban-info/${bob.user._id}`)).status).toBe(403);
    expect((await ada.api.call('PUT', `/user/appeal-ban/${bob.user._id}`, { appealExplanation: 'x' })).status).toBe(
      403,
    );
    expect((await admin.call('GET', `/user/ban-info/${bob.user._id}`)).body).toMatchObject({ isBanned: true });

    expect(
      (await bob.api.call('PUT', `/user/appeal-ban/${bob.user._id}`, { appealExplanation: '   ' })).body,
    ).toMatchObject({
      statusCode: 400,
      message: ['appealExplanation: Please provide a reason for your appeal.'],
    });
    const appeal = { appealExplanation: 'It was my brother on my account; I have changed my password.' };
    expect((await bob.api.call('PUT', `/user/appeal-ban/${bob.user._id}`, appeal)).status).toBe(200);
    expect((await bob.api.call('PUT', `/user/appeal-ban/${bob.user._id}`, appeal)).status).toBe(409);

    expect(
      (
        await admin.call('POST', `/admin/bans/${caseId}/appeal`, {
          outcome: 'approved',
          note: 'Credible; first offence',
        })
      ).status,
    ).toBe(200);
    await expect.poll(() => bobHears.map((p) => p.isBanned)).toEqual([true, false]);
    expect(((await bob.api.call('GET', '/auth/user-info')).body as UserInfo).isBanned).toBe(false);
    const again = await bob.connect();
    open.push(again);
    expect(await again.emitWithAck('startMatching', { filters: ANYONE, deviceType: 'desktop' })).toEqual({
      status: 'searching',
    });

    const history = (await bob.api.call('GET', '/user/ban-history')).body as BanHistoryEntry[];
    expect(history).toEqual([
      expect.objectContaining({
        caseId,
        appealStatus: 'approved',
        appealExplanation: appeal.appealExplanation,
        appealDecision: expect.objectContaining({ note: 'Credible; first offence' }),
        ended: expect.objectContaining({ how: 'appeal-approved' }),
      }),
    ]);
    const trail = (await admin.call('GET', `/admin/users/${bob.user._id}/moderation-trail`)).body as {
      type: string;
      actor: string;
      data: Record<string, unknown>;
    }[];
    expect(trail.map((e) => [e.type, e.actor])).toEqual([
      ['UserBanned', adminId],
      ['BanAppealed', bob.user._id],
      ['AppealResolved', adminId],
    ]);
    expect(trail[0]!.data).toMatchObject({ reason: 'Harassment in a call', level: 'moderate' });
  });

  it('ends a timed ban on its own once its expiry passes, and tells the user', async () => {
    const bob = await videoUser(test.base, { firstName: 'Bob', gender: 'male' });
    const bobSystem = await openSystemSocket(test.base, bob.api);
    open.push(bobSystem);
    const bobHears = banPushes(bobSystem);
    // A one-day ban decided two days ago: its expiry is already past, and no one lifts it.
    const twoDaysAgo = new Date(Date.now() - 2 * 86_400_000);
    await test.app.get(CommandBus).execute(
      new BanUser(
        bob.user._id,
        'Spam links in chat',
        'moderate',
        { kind: 'restriction', days: 1 },
        undefined,
        undefined,
        {
          commandId: randomUUID(),
          correlationId: randomUUID(),
          actor: adminId,
          now: twoDaysAgo,
        },
      ),
    );
    await expect
      .poll(async () => (await bob.api.call('GET', '/user/ban-history')).body as BanHistoryEntry[], { timeout: 15_000 })
      .toEqual([expect.objectContaining({ ended: expect.objectContaining({ how: 'expired' }) })]);
    await expect.poll(() => bobHears.map((p) => p.isBanned)).toContain(false);
    expect(((await bob.api.call('GET', '/auth/user-info')).body as UserInfo).isBanned).toBe(false);
  });

  it('keeps a permanently banned address from signing up again after the account is deleted, holding only a keyed hash of it', async () => {
    const carl = await videoUser(test.base, { firstName: 'Carl', gender: 'male' });
    const address = carl.user.emailAddress;
    const permanent = {
      reason: 'Threats of violence',
      level: 'severe',
      penalty: { kind: 'permanent' },
      overrideReason: 'Credible threats: no second chance',
    };
    expect((await admin.call('POST', `/admin/users/${carl.user._id}/ban`, permanent)).status).toBe(201);
    // Deleting the account is a right the ban does not take away.
    const deleted = await carl.api.call('POST', '/user/delete-account', { currentPassword: VIDEO_USER_PASSWORD });
    expect(deleted.status).toBe(200);

    const barred = await test.db.selectFrom('identity_barred_addresses').selectAll().execute();
    expect(JSON.stringify(barred)).not.toContain(address.split('@')[0]);

    // Sign-up answers as for any address (no enumeration), but the address is not given to the new account.
    const again = new ApiClient(test.base);
    // The same mailbox written otherwise: the local part's case (the domain's too, which canonical form lowercases).
    const variant = address.toUpperCase();
    const signup = await again.call('POST', '/auth/signup', { emailAddress: variant, password: VIDEO_USER_PASSWORD });
    expect(signup.status).toBe(201);
    const mail = await devOutbox(test.base)(
      variant.replace('@EXAMPLE.COM', '@example.com'),
      /cannot be used on Serendip/,
    );
    expect(mail).toContain('permanently banned');
    const other = await videoUser(test.base, { firstName: 'Dora' });
    expect(other.user.emailVerified).toBe(true);
    expect(((await again.call('GET', '/auth/user-info')).body as UserInfo).emailVerified).toBe(false);
  });

  it("closes only the banned user's video socket: the page's system socket on the same connection stays and hears the ban", async () => {
    const { bob, bobSocket, adaSocket } = await call();
    // As the browser opens them: both namespaces over one connection (one Socket.IO manager).
    const manager = new Manager(test.base, {
      transports: ['websocket'],
      reconnection: false,
      extraHeaders: { Cookie: bob.api.cookieHeader() },
    });
    const system = manager.socket('/') as SystemClient;
    const video = manager.socket('/video') as VideoClient;
    open.push(system, video);
    await Promise.all([system, video].map((s) => new Promise((resolve) => s.once('connect', () => resolve(null)))));
    const hears = banPushes(system);
    const closed = new Promise((resolve) => video.once('disconnect', resolve));
    // As the page does: the client closes a refused video socket itself (the server would, a moment later).
    video.on('videoError', () => video.disconnect());

    const banned = await admin.call('POST', `/admin/users/${bob.user._id}/ban`, {
      reason: 'Harassment in a call',
      level: 'moderate',
      penalty: { kind: 'restriction', days: 1 },
    });
    expect(banned.status).toBe(201);
    await closed;
    await expect.poll(() => hears).toEqual([expect.objectContaining({ userId: bob.user._id, isBanned: true })]);
    expect(system.connected).toBe(true);
    void bobSocket;
    void adaSocket;
  });

  it('warns for a first minor violation: nothing is restricted, the user sees it, and it counts toward the next', async () => {
    const dan = await videoUser(test.base, { firstName: 'Dan', gender: 'male' });
    const suggestion = await admin.call('GET', `/admin/users/${dan.user._id}/penalty-suggestion?level=minor`);
    expect(suggestion.body).toMatchObject({ kind: 'warning', tier: 1 });
    const warned = await admin.call('POST', `/admin/users/${dan.user._id}/ban`, {
      reason: 'Spam links in chat',
      level: 'minor',
      penalty: { kind: 'warning' },
    });
    expect(warned.status).toBe(201);
    expect(((await dan.api.call('GET', '/auth/user-info')).body as UserInfo).isBanned).toBe(false);
    expect((await dan.api.call('GET', '/report/recent-calls')).status).toBe(200);
    expect((await dan.api.call('GET', '/user/warnings')).body).toEqual([
      expect.objectContaining({ reason: 'Spam links in chat', level: 'minor', warnedByWho: null }),
    ]);
    expect((await dan.api.call('GET', '/user/ban-history')).body).toEqual([]);
    const next = await admin.call('GET', `/admin/users/${dan.user._id}/penalty-suggestion?level=minor`);
    expect(next.body).toMatchObject({ kind: 'restriction', days: 3, tier: 2 });
  });

  it('forgets a person who deletes the account: the screenshots of them, and every word by or about them, in the log and the read models; what happened stays', async () => {
    const { ada, bob, matchId } = await call();
    const shot = await upload(ada, await capture());
    const filed = await ada.api.call('POST', '/report/submit-report', {
      matchId,
      reason: 'spam',
      severity: 'low',
      screenshot: shot.body.screenshotId,
      details: 'DETAILS-SECRET about Bob',
    });
    expect(filed.status).toBe(201);
    const file = path.join(dataDir, 'evidence', 'reports', `${shot.body.screenshotId}.jpg`);
    expect(existsSync(file)).toBe(true);
    const ban = await admin.call('POST', `/admin/users/${bob.user._id}/ban`, {
      reason: 'REASON-SECRET spam',
      level: 'minor',
      penalty: { kind: 'restriction', days: 7 },
      overrideReason: 'OVERRIDE-SECRET repeated',
    });
    expect(ban.status).toBe(201);
    await bob.api.call('PUT', `/user/appeal-ban/${bob.user._id}`, { appealExplanation: 'APPEAL-SECRET not me' });

    const deleted = await bob.api.call('POST', '/user/delete-account', { currentPassword: VIDEO_USER_PASSWORD });
    expect(deleted.status).toBe(200);
    expect((await ada.api.call('POST', '/user/delete-account', { currentPassword: VIDEO_USER_PASSWORD })).status).toBe(
      200,
    );
    const everything = async () =>
      JSON.stringify([
        await test.db.selectFrom('moderation_bans').selectAll().where('user_id', '=', bob.user._id).execute(),
        await test.db.selectFrom('moderation_reports').selectAll().where('reported_id', '=', bob.user._id).execute(),
        await test.db.selectFrom('events').select('data').where('stream_id', 'like', 'moderation-%').execute(),
      ]);
    await expect.poll(everything, { timeout: 10_000 }).not.toMatch(/SECRET/);
    expect(await everything()).toContain('appeal_status');

    await expect.poll(() => existsSync(file), { timeout: 10_000 }).toBe(false);
    const { reportId } = filed.body as { reportId: string };
    await expect.poll(async () => (await admin.call('GET', `/admin/reports/${reportId}/screenshot`)).status).toBe(404);
    const trail = (await admin.call('GET', `/admin/users/${bob.user._id}/moderation-trail`)).body as { type: string }[];
    expect(trail.map((e) => e.type)).toEqual(['ReportFiled', 'UserBanned', 'BanAppealed', 'ReportScreenshotDeleted']);
  });

  it('refuses a banned client that ignores the ban and asks to match again at once: nobody is paired with them', async () => {
    for (let round = 0; round < 3; round++) {
      const bob = await videoUser(test.base, { firstName: 'Bob', gender: 'male' });
      const socket = await bob.connect();
      open.push(socket);
      const answers: unknown[] = [];
      // A modified client: on hearing the ban it does not close, it starts matching again.
      socket.once('videoError', () => {
        void socket
          .emitWithAck('startMatching', { filters: ANYONE, deviceType: 'desktop' })
          .then((answer) => answers.push(answer));
      });
      const ban = await admin.call('POST', `/admin/users/${bob.user._id}/ban`, {
        reason: 'Harassment in a call',
        level: 'moderate',
        penalty: { kind: 'restriction', days: 1 },
      });
      expect(ban.status).toBe(201);
      await expect.poll(() => answers).toEqual([{ error: { reason: 'Your account is restricted.' } }]);
      const carl = await videoUser(test.base, { firstName: 'Carl', gender: 'female' });
      const carlSocket = await carl.connect();
      open.push(carlSocket);
      const carlFound = nextEvent(carlSocket, 'matchFound', 1_000).then(
        () => true,
        () => false,
      );
      await carlSocket.emitWithAck('startMatching', { filters: ANYONE, deviceType: 'desktop' });
      expect(await carlFound).toBe(false);
      for (const s of open.splice(0)) s.close();
    }
  });

  it("keeps the moderation trail for admins: no evidence file names in it, and every read is a look on the person's audit trail", async () => {
    const { ada, bob, matchId } = await call();
    const shot = await upload(ada, await capture());
    const filed = await ada.api.call('POST', '/report/submit-report', {
      matchId,
      screenshot: shot.body.screenshotId,
      reason: 'harassment',
      severity: 'high',
      details: 'Shouted at me',
    });
    expect(filed.status).toBe(201);
    const { reportId } = filed.body as { reportId: string };
    const { file } = await test.db
      .selectFrom('moderation_reports')
      .select('screenshot_file as file')
      .where('report_id', '=', reportId)
      .executeTakeFirstOrThrow();
    expect(file).toEqual(expect.any(String));

    // A moderator gets the dashboard's audit trail (personal data hidden), not the decrypted moderation trail.
    const { moderator } = await signedInModerator(test);
    const refused = await moderator.call('GET', `/admin/users/${bob.user._id}/moderation-trail`);
    expect(refused).toMatchObject({ status: 403 });

    const trail = await admin.call('GET', `/admin/users/${bob.user._id}/moderation-trail`);
    expect(trail.status).toBe(200);
    const entries = trail.body as { type: string; data: Record<string, unknown> }[];
    const report = entries.find((e) => e.type === 'ReportFiled')!;
    // The screenshot's checksum and size stay (they prove the evidence); where the file lies does not leave.
    expect(report.data.screenshot).toEqual({ sha256: shot.body.sha256, bytes: expect.any(Number) });
    expect(JSON.stringify(entries)).not.toContain(path.basename(file!));

    // Each read is recorded (StaffViewedUser, 'moderation-trail') and shows in Bob's audit trail, by the admin.
    expect((await admin.call('GET', `/admin/users/${bob.user._id}/moderation-trail`)).status).toBe(200);
    const looks = async () =>
      (
        (await admin.call('GET', `/dash/users/${bob.user._id}/audit-trail?page=1`)).body as {
          items: { type: string; actor: { _id?: string }; summary: string }[];
        }
      ).items.filter(
        (e) => e.type === 'StaffViewedUser' && e.actor._id === adminId && e.summary.includes('what: moderation-trail'),
      ).length;
    await expect.poll(looks, { timeout: 10_000 }).toBe(2);
  });

  it('answers junk ids with 404, takes screenshots only from someone with a call to report, and shows a moderator by initial only', async () => {
    for (const path of [
      '/admin/users/not-a-user/penalty-suggestion?level=minor',
      '/admin/users/%00/moderation-trail',
      '/user/ban-info/%00',
    ]) {
      expect((await admin.call('GET', path)).status).toBe(404);
    }
    const body = { reason: 'x', level: 'minor', penalty: { kind: 'warning' } };
    expect((await admin.call('POST', '/admin/users/not-a-user/ban', body)).status).toBe(404);
    expect((await admin.call('POST', '/admin/bans/%00/unban', { reason: 'x' })).status).toBe(404);
    expect((await admin.call('POST', '/admin/bans/x/appeal', { outcome: 'approved', note: 'x' })).status).toBe(404);

    const loner = await videoUser(test.base, { firstName: 'Lone' });
    expect((await upload(loner, await capture())).status).toBe(403);

    // A moderator with a full name: the banned user learns the first name and an initial, no more.
    const grace = await videoUser(test.base, { firstName: 'Grace' });
    await test.db
      .updateTable('users')
      .set({ role: 'admin', is_admin: true, two_factor_enabled: true })
      .where('user_id', '=', grace.user._id)
      .execute();
    // Staff act from a session started with the mailed code (spec 6 Admin).
    expect((await grace.api.call('POST', '/user/enable-twofac')).status).toBe(200);
    const graceStaff = new ApiClient(test.base);
    await signInWithCode(graceStaff, grace.user.emailAddress, VIDEO_USER_PASSWORD, devOutbox(test.base));
    const banned = await graceStaff.call('POST', `/admin/users/${loner.user._id}/ban`, {
      reason: 'Spam',
      level: 'moderate',
      penalty: { kind: 'restriction', days: 1 },
    });
    expect(banned.status).toBe(201);
    expect((await loner.api.call('GET', `/user/ban-info/${loner.user._id}`)).body).toMatchObject({
      ban: { bannedByWho: { firstName: 'Grace', lastName: 'L' } },
    });
  });

  it('keeps a banned account on its address: a change of address asked for before the ban cannot be confirmed after it', async () => {
    const eve = await videoUser(test.base, { firstName: 'Eve' });
    const newAddress = `moved-${randomUUID().slice(0, 8)}@example.com`;
    const change = await eve.api.call('POST', '/user/edit-account', {
      emailAddress: newAddress,
      currentPassword: VIDEO_USER_PASSWORD,
    });
    expect(change.status).toBe(200);
    const mail = await devOutbox(test.base)(newAddress, /Confirm your new e-mail address/);
    const token = /verify-email\?token=([\w-]+)/.exec(mail)?.[1];
    expect(token).toBeDefined();

    const permanent = {
      reason: 'Threats of violence',
      level: 'severe',
      penalty: { kind: 'permanent' },
      overrideReason: 'Credible threats',
    };
    expect((await admin.call('POST', `/admin/users/${eve.user._id}/ban`, permanent)).status).toBe(201);
    // The link needs no sign-in: anyone holding it tries.
    const followed = await new ApiClient(test.base).call('POST', '/auth/verify-email', { token });
    expect(followed.body).toMatchObject({ statusCode: 403, message: 'Your account is restricted.' });
    expect(((await eve.api.call('GET', '/auth/user-info')).body as UserInfo).emailAddress).toBe(eve.user.emailAddress);
  });
});
