import { createHash, randomUUID } from 'node:crypto';
import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Logger } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { startVp8Source } from '../../../../../sfu/src/test-support/vp8-source.js';
import { signedInAdmin } from '../../../test-support/admins.js';
import { ApiClient } from '../../../test-support/api-client.js';
import { mediasoupWorker } from '../../../test-support/mediasoup-worker.js';
import { startTestApp, type TestApp } from '../../../test-support/test-app.js';
import {
  ANYONE,
  nextEvent,
  VIDEO_USER_PASSWORD,
  type VideoClient,
  type VideoUser,
  videoUser,
} from '../../../test-support/video-users.js';
import { matchStream } from '../../domain/match.events.js';
import { EmbeddedSfu } from '../../media/embedded-sfu.js';
import { TakeSnapshot } from '../../public/index.js';
import { HoldEvidence } from '../hold-evidence/hold-evidence.command.js';
import { PurgeExpiredEvidence } from '../purge-expired-evidence/purge-expired-evidence.command.js';

const worker = mediasoupWorker();
const DAY_MS = 24 * 60 * 60_000;

interface Taken {
  snapshotId: string;
  matchId: string;
  userId: string;
  sha256: string;
  takenAt: string;
}

/**
 * Server-side snapshots are report evidence of a person's face (DESIGN.md "Matching"): each is taken for a stated
 * reason, every look at one is on record, its bytes are checked before they are shown, and it does not outlive its
 * purpose. Over the real app, a real mediasoup worker and ffmpeg's VP8 test pattern as the filmed user's camera.
 */
describe.skipIf(!worker)('evidence: server-side snapshots', () => {
  let test: TestApp;
  let dataDir: string;
  let admin: ApiClient;
  let adminId: string;
  const open: VideoClient[] = [];
  const sources: (() => void)[] = [];

  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(os.tmpdir(), 'serendip-evidence-'));
    test = await startTestApp({ MEDIA_MODE: 'relay', DATA_DIR: dataDir });
    ({ admin, adminId } = await signedInAdmin(test));
  }, 60_000);
  afterEach(() => {
    for (const socket of open.splice(0)) socket.close();
    for (const stop of sources.splice(0)) stop();
    vi.restoreAllMocks();
  });
  afterAll(async () => {
    await test?.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  /** Ada and Bob in a relayed call, Bob's camera (and Ada's too when asked) sending video through the SFU. */
  async function relayedCall({ adaFilmed = false } = {}): Promise<{ ada: VideoUser; bob: VideoUser; matchId: string }> {
    const ada = await videoUser(test.base, { firstName: 'Ada', gender: 'female' });
    const bob = await videoUser(test.base, { firstName: 'Bob', gender: 'male' });
    const [adaSocket, bobSocket] = [await ada.connect(), await bob.connect()];
    open.push(adaSocket, bobSocket);
    const found = nextEvent(bobSocket, 'matchFound');
    await adaSocket.emitWithAck('startMatching', { filters: ANYONE, deviceType: 'desktop' });
    await bobSocket.emitWithAck('startMatching', { filters: ANYONE, deviceType: 'desktop' });
    const { matchId } = await found;
    // The call's relay reaches the read model a moment later; a snapshot before that finds no relayed call.
    await expect
      .poll(() => test.db.selectFrom('matches').select('sfu_node').where('match_id', '=', matchId).executeTakeFirst())
      .toEqual({ sfu_node: expect.any(String) });
    const sfu = test.app.get(EmbeddedSfu).running!;
    await expect.poll(() => sfu.rooms().has(matchId)).toBe(true);
    // The SFU's Room as the built package and as its sources: the same class.
    const room = sfu.rooms().get(matchId)! as unknown as Parameters<typeof startVp8Source>[0];
    const filmed: [VideoClient, VideoUser][] = adaFilmed
      ? [
          [bobSocket, bob],
          [adaSocket, ada],
        ]
      : [[bobSocket, bob]];
    for (const [socket, user] of filmed) {
      await socket.emitWithAck('media:join', {});
      sources.push((await startVp8Source(room, user.user._id)).stop);
    }
    return { ada, bob, matchId };
  }

  async function snapshotOf(userId: string, reason = 'Reported for showing a weapon on camera'): Promise<Taken> {
    const taken = await admin.call('POST', '/admin/snapshots', { userId, reason });
    expect(taken.body).toMatchObject({ userId, snapshotId: expect.any(String) });
    expect(taken.status).toBe(201);
    return taken.body as Taken;
  }

  /**
   * The call's events, from its own stream: a read of the whole log (readAll) leaves out for a moment what committed
   * while another transaction anywhere on the server was still running, and on a busy machine a view just made was
   * left out so.
   */
  const eventsOfCall = (matchId: string) => test.core.store.readStream(matchStream(matchId));

  /** The JPEG as the dashboard fetches it. */
  const view = (snapshotId: string, as = admin) =>
    fetch(`${test.base}/api/admin/snapshots/${snapshotId}`, {
      headers: { Cookie: as.cookieHeader(), 'X-Forwarded-For': as.ip },
    });
  const fileOf = (snapshotId: string) => path.join(dataDir, 'evidence', `${snapshotId}.jpg`);
  const exists = (file: string) =>
    stat(file).then(
      () => true,
      () => false,
    );
  const rowOf = (snapshotId: string) =>
    test.db.selectFrom('evidence_snapshots').selectAll().where('snapshot_id', '=', snapshotId).executeTakeFirst();
  const commands = () => test.app.get(CommandBus);

  describe('Evidence: a snapshot needs a stated reason', () => {
    it('refuses a snapshot without a reason or a report, and keeps the reason it was taken for', async () => {
      const { bob, matchId } = await relayedCall();
      const userId = bob.user._id;
      for (const [body, message] of [
        [{ userId }, 'reason must say why the snapshot is taken'],
        [{ userId, reason: '   ' }, 'reason must say why the snapshot is taken'],
        [{ userId, reason: 'x'.repeat(501) }, 'reason must be at most 500 characters'],
        [{ userId, reason: 'For the report', reportId: 'nope' }, 'reportId must be a report id'],
        // A made-up report id is no reason: the route cannot check that the report exists.
        [{ userId, reportId: randomUUID() }, 'reason must say why the snapshot is taken'],
      ] as const) {
        const refused = await admin.call('POST', '/admin/snapshots', body);
        expect(refused.body).toMatchObject({ statusCode: 400, message: expect.arrayContaining([message]) });
      }
      // Nothing was taken for those.
      expect(await test.db.selectFrom('evidence_snapshots').select('snapshot_id').execute()).toEqual([]);

      const taken = await snapshotOf(userId, '  Reported for showing a weapon on camera ');
      expect(taken).toMatchObject({ matchId, reason: 'Reported for showing a weapon on camera', reportId: null });
      const reportId = randomUUID();
      const forReport = await admin.call('POST', '/admin/snapshots', { userId, reportId, reason: 'For the report' });
      expect(forReport.status).toBe(201);
      expect(forReport.body).toMatchObject({ reportId, reason: 'For the report' });

      // The log says why and for which report, the reason sealed as the filmed person's personal data.
      const recorded = (await eventsOfCall(matchId)).filter((e) => e.type === 'SnapshotTaken');
      expect(recorded.map((e) => e.data)).toEqual(
        expect.arrayContaining([
          expect.objectContaining({
            snapshotId: taken.snapshotId,
            reason: 'Reported for showing a weapon on camera',
            reportId: null,
          }),
          expect.objectContaining({
            snapshotId: (forReport.body as Taken).snapshotId,
            reason: 'For the report',
            reportId,
          }),
        ]),
      );
      const stored = await test.db.selectFrom('events').select('data').where('type', '=', 'SnapshotTaken').execute();
      expect(JSON.stringify(stored)).not.toContain('weapon');
    });
  });

  describe("Evidence: a report's snapshot (moderation, through matching's public/)", () => {
    it("is taken in the report's call only, never in another call of the reported side", async () => {
      const { ada, bob, matchId } = await relayedCall();
      const reportId = randomUUID();
      // Not bob's call now (an earlier one, or made up): nothing of bob is taken, whoever he is with now.
      await expect(
        commands().execute(new TakeSnapshot(bob.user._id, ada.user._id, { reportId, matchId: randomUUID() })),
      ).rejects.toMatchObject({ code: 'not-relayed' });
      const ofBob = () =>
        test.db.selectFrom('evidence_snapshots').select('snapshot_id').where('user_id', '=', bob.user._id).execute();
      expect(await ofBob()).toEqual([]);
      const taken = await commands().execute(new TakeSnapshot(bob.user._id, ada.user._id, { reportId, matchId }));
      expect(taken).toMatchObject({ matchId, userId: bob.user._id, requestedBy: ada.user._id, reportId, reason: null });
      expect(await ofBob()).toEqual([{ snapshot_id: taken.snapshotId }]);
      expect(await rowOf(taken.snapshotId)).toMatchObject({ match_id: matchId, report_id: reportId });
    });
  });

  describe('Evidence: viewing a snapshot is recorded', () => {
    it("records who looked at it and when, and shows it in the snapshot's audit", async () => {
      const { bob } = await relayedCall();
      const taken = await snapshotOf(bob.user._id);
      const before = Date.now();
      const seen = await view(taken.snapshotId);
      expect(seen.status).toBe(200);
      expect(
        createHash('sha256')
          .update(Buffer.from(await seen.arrayBuffer()))
          .digest('hex'),
      ).toBe(taken.sha256);

      const viewed = (await eventsOfCall(taken.matchId)).filter(
        (e) => e.type === 'SnapshotViewed' && (e.data as { snapshotId: string }).snapshotId === taken.snapshotId,
      );
      expect(viewed).toHaveLength(1);
      expect(viewed[0]).toMatchObject({ data: { viewedBy: adminId }, metadata: { actor: adminId } });
      expect(Date.parse(viewed[0]!.metadata.occurredAt)).toBeGreaterThanOrEqual(before - 1000);

      await expect
        .poll(async () => (await admin.call('GET', `/admin/snapshots/${taken.snapshotId}/audit`)).body)
        .toMatchObject({
          snapshotId: taken.snapshotId,
          userId: bob.user._id,
          entries: [
            { action: 'taken', by: adminId, at: expect.any(String) },
            { action: 'viewed', by: adminId, at: expect.any(String) },
          ],
        });
      // The audit is for admins only.
      expect((await bob.api.call('GET', `/admin/snapshots/${taken.snapshotId}/audit`)).status).toBe(403);
    });
  });

  describe('Evidence: a repeated request (the same Idempotency-Key) is still a recorded, checked view', () => {
    it('records each look and checks the bytes each time, whatever key the request carries', async () => {
      const { bob } = await relayedCall();
      const taken = await snapshotOf(bob.user._id);
      const again = (snapshotId: string) =>
        fetch(`${test.base}/api/admin/snapshots/${snapshotId}`, {
          headers: { Cookie: admin.cookieHeader(), 'X-Forwarded-For': admin.ip, 'Idempotency-Key': 'same-key-1' },
        });
      expect((await again(taken.snapshotId)).status).toBe(200);
      const original = await readFile(fileOf(taken.snapshotId));
      const forged = Buffer.from(original);
      forged[forged.length - 10] = forged[forged.length - 10]! ^ 0xff;
      await writeFile(fileOf(taken.snapshotId), forged);
      // Replaying the key must not skip the checksum: the changed file is refused.
      expect((await again(taken.snapshotId)).status).toBe(409);
      await writeFile(fileOf(taken.snapshotId), original);
      expect((await again(taken.snapshotId)).status).toBe(200);
      const viewed = (await eventsOfCall(taken.matchId)).filter(
        (e) => e.type === 'SnapshotViewed' && (e.data as { snapshotId: string }).snapshotId === taken.snapshotId,
      );
      expect(viewed).toHaveLength(2);
    });
  });

  describe('Evidence: a snapshot is checked against its SHA-256 before it is shown', () => {
    it('refuses to serve a file whose bytes were changed on disk, and logs the mismatch', async () => {
      const { bob } = await relayedCall();
      const taken = await snapshotOf(bob.user._id);
      const original = await readFile(fileOf(taken.snapshotId));
      // Someone with access to the disk swaps the picture for another one.
      const forged = Buffer.from(original);
      forged[forged.length - 10] = forged[forged.length - 10]! ^ 0xff;
      await writeFile(fileOf(taken.snapshotId), forged);
      const errors = vi.spyOn(Logger.prototype, 'error');

      const refused = await view(taken.snapshotId);
      expect(refused.status).toBe(409);
      expect(refused.headers.get('content-type')).not.toContain('image/jpeg');
      expect(await refused.json()).toMatchObject({ message: expect.stringContaining('does not match its checksum') });
      expect(errors).toHaveBeenCalledWith(expect.stringContaining(taken.snapshotId));
      // A refused look shows nothing, so it is no view.
      const viewed = (await eventsOfCall(taken.matchId)).filter(
        (e) => e.type === 'SnapshotViewed' && (e.data as { snapshotId: string }).snapshotId === taken.snapshotId,
      );
      expect(viewed).toEqual([]);

      // The right bytes back: served again.
      await writeFile(fileOf(taken.snapshotId), original);
      expect((await view(taken.snapshotId)).status).toBe(200);
    });
  });

  describe('Evidence: snapshots are deleted after the retention period unless a case holds them', () => {
    it('deletes the expired, unheld snapshots (file and row), recording why; keeps held and recent ones', async () => {
      const { bob } = await relayedCall();
      const expired = await snapshotOf(bob.user._id);
      const held = await snapshotOf(bob.user._id);
      const caseId = randomUUID();
      await commands().execute(new HoldEvidence(held.snapshotId, caseId, adminId));

      // 89 days on: nothing is due yet.
      await commands().execute(new PurgeExpiredEvidence(new Date(Date.now() + 89 * DAY_MS)));
      expect((await view(expired.snapshotId)).status).toBe(200);

      // 91 days on (EVIDENCE_RETENTION_DAYS defaults to 90).
      await commands().execute(new PurgeExpiredEvidence(new Date(Date.now() + 91 * DAY_MS)));
      expect(await exists(fileOf(expired.snapshotId))).toBe(false);
      await expect.poll(() => rowOf(expired.snapshotId)).toBeUndefined();
      expect((await view(expired.snapshotId)).status).toBe(404);
      const deleted = (await eventsOfCall(expired.matchId)).filter((e) => e.type === 'SnapshotDeleted');
      expect(deleted.map((e) => e.data)).toContainEqual(
        expect.objectContaining({ snapshotId: expired.snapshotId, reason: 'retention' }),
      );
      await expect
        .poll(async () => (await admin.call('GET', `/admin/snapshots/${expired.snapshotId}/audit`)).body)
        .toMatchObject({
          entries: expect.arrayContaining([
            { action: 'deleted', by: 'system', at: expect.any(String), detail: 'retention' },
          ]),
        });

      // The held one stays, whole.
      expect(await exists(fileOf(held.snapshotId))).toBe(true);
      expect((await view(held.snapshotId)).status).toBe(200);
    });
  });

  describe("Evidence: a deleted account's snapshots go with it unless a case holds them", () => {
    it('deletes the file and row of each snapshot showing the person, but not a held one', async () => {
      const { ada, bob } = await relayedCall({ adaFilmed: true });
      const gone = await snapshotOf(bob.user._id);
      const held = await snapshotOf(bob.user._id);
      await commands().execute(new HoldEvidence(held.snapshotId, randomUUID(), adminId));
      // A snapshot of the other person in the same call is not Bob's to take away.
      const unrelated = await snapshotOf(ada.user._id);

      expect(
        (await bob.api.call('POST', '/user/delete-account', { currentPassword: VIDEO_USER_PASSWORD })).status,
      ).toBe(200);

      await expect.poll(() => exists(fileOf(gone.snapshotId)), { timeout: 10_000 }).toBe(false);
      await expect.poll(() => rowOf(gone.snapshotId)).toBeUndefined();
      expect((await view(gone.snapshotId)).status).toBe(404);
      const deleted = (await eventsOfCall(gone.matchId)).filter((e) => e.type === 'SnapshotDeleted');
      expect(deleted.map((e) => e.data)).toContainEqual(
        expect.objectContaining({ snapshotId: gone.snapshotId, reason: 'account-deleted' }),
      );

      expect(await exists(fileOf(held.snapshotId))).toBe(true);
      expect(await rowOf(held.snapshotId)).toBeDefined();
      expect((await view(held.snapshotId)).status).toBe(200);
      expect((await view(unrelated.snapshotId)).status).toBe(200);
    });
  });
});
