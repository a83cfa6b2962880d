import { createHash } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { signedInAdmin } from '../test-support/admins.js';
import { ApiClient } from '../test-support/api-client.js';
import { filmInRelayedCall } from '../test-support/filmed-calls.js';
import { mediasoupWorker } from '../test-support/mediasoup-worker.js';
import { startTestApp, type TestApp } from '../test-support/test-app.js';
import type { ReportListedPush } from '@serendip/proto';
import {
  ANYONE,
  nextEvent,
  openSystemSocket,
  type SystemClient,
  type VideoClient,
  videoUser,
} from '../test-support/video-users.js';

const worker = mediasoupWorker();

/**
 * A report of a relayed call carries the server's own frame of the reported side, taken at once by the SFU: evidence
 * the reporter cannot forge (spec 4 "Screenshot capture"; DESIGN.md "Shape"). The open report holds it past retention;
 * its review lets go. Over the real app, a real mediasoup worker and ffmpeg's VP8 test pattern as Bob's camera.
 */
describe.skipIf(!worker)('report evidence: the server snapshot of a relayed call', () => {
  let test: TestApp;
  let dataDir: string;
  let admin: ApiClient;
  const open: (VideoClient | SystemClient)[] = [];
  const stops: (() => void)[] = [];

  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(os.tmpdir(), 'serendip-report-evidence-'));
    test = await startTestApp({ MEDIA_MODE: 'relay', DATA_DIR: dataDir });
    ({ admin } = await signedInAdmin(test));
  }, 60_000);
  afterEach(() => {
    for (const socket of open.splice(0)) socket.close();
    for (const stop of stops.splice(0)) stop();
  });
  afterAll(async () => {
    await test?.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  it("attaches the SFU's frame of the reported side, checked against its SHA-256, and holds it while the report is open", async () => {
    const ada = await videoUser(test.base, { firstName: 'Ada', gender: 'female' });
    const bob = await videoUser(test.base, { firstName: 'Bob', gender: 'male' });
    const [adaSocket, bobSocket] = [await ada.connect(), await bob.connect()];
    open.push(adaSocket, bobSocket);
    const found = nextEvent(adaSocket, 'matchFound');
    await adaSocket.emitWithAck('startMatching', { filters: ANYONE, deviceType: 'desktop' });
    await bobSocket.emitWithAck('startMatching', { filters: ANYONE, deviceType: 'desktop' });
    const { matchId, partnerId } = await found;
    stops.push(await filmInRelayedCall(test, matchId, bobSocket, bob.user._id));
    await expect
      .poll(() => test.db.selectFrom('matches').select('sfu_node').where('match_id', '=', matchId).executeTakeFirst())
      .toEqual({ sfu_node: expect.any(String) });

    const staff = await openSystemSocket(test.base, admin);
    open.push(staff);
    const staffHears: ReportListedPush[] = [];
    staff.on('reportFiled', (push) => staffHears.push(push));

    // No screenshot from Ada at all: the server's frame is the evidence.
    const filed = await ada.api.call('POST', '/report/submit-report', {
      matchId,
      reportedUser: partnerId,
      reason: 'inappropriate',
      severity: 'high',
    });
    expect(filed.status).toBe(201);
    const { reportId } = filed.body as { reportId: string };

    const listed = ((await admin.call('GET', '/admin/reports')).body as Record<string, string | null>[]).find(
      (r) => r.reportId === reportId,
    )!;
    expect(listed).toMatchObject({ reportedUser: bob.user._id, screenshot: null, snapshot: expect.any(String) });
    // The dashboard's table hears of it with the server's frame already there.
    await expect.poll(() => staffHears.map((p) => p._id)).toEqual([reportId]);
    expect(staffHears[0]).toMatchObject({ serverSnapshot: listed.snapshot });
    expect(staffHears[0]!.screenshot).toBeUndefined();
    const frame = await fetch(`${test.base}${listed.snapshot!}`, {
      headers: { Cookie: admin.cookieHeader(), 'X-Forwarded-For': admin.ip },
    });
    expect(frame.status).toBe(200);
    expect(
      createHash('sha256')
        .update(Buffer.from(await frame.arrayBuffer()))
        .digest('hex'),
    ).toBe(listed.snapshotSha256);
    const snapshotId = listed.snapshot!.split('/').pop()!;
    const row = () =>
      test.db
        .selectFrom('evidence_snapshots')
        .select(['user_id', 'report_id', 'holds'])
        .where('snapshot_id', '=', snapshotId)
        .executeTakeFirst();
    expect(await row()).toEqual({ user_id: bob.user._id, report_id: reportId, holds: 1 });

    // Reviewed and dismissed: the report lets go, and retention may delete the frame.
    const dismissed = await admin.call('POST', `/admin/reports/${reportId}/resolve`, { outcome: 'dismissed' });
    expect(dismissed.status).toBe(200);
    expect(await row()).toMatchObject({ holds: 0 });
  });
});
