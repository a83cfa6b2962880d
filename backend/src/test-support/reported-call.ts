import sharp from 'sharp';
import { expect } from 'vitest';
import type { ApiClient } from './api-client.js';
import type { TestApp } from './test-app.js';
import { ANYONE, nextEvent, type VideoClient, videoUser } from './video-users.js';

/**
 * Ada and Bob meet in a call; Ada reports Bob with a screenshot of it (details 'DETAILS-SECRET he shouted'), and
 * `admin` restricts Bob for a day for that report (reason 'REASON-SECRET harassment'): a person with a report, its
 * evidence and a ban in their history. Their sockets go into `open`, for the caller to close.
 */
export async function reportedAndBanned(test: TestApp, admin: ApiClient, open: VideoClient[], colour = '#c33') {
  const { ada, bob, matchId } = await inACall(test, open);
  const jpeg = await sharp({ create: { width: 64, height: 36, channels: 3, background: colour } })
    .jpeg()
    .toBuffer();
  const upload = await fetch(`${test.base}/api/report/screenshots`, {
    method: 'POST',
    headers: { Cookie: ada.api.cookieHeader(), 'X-Forwarded-For': ada.api.ip, 'Content-Type': 'image/jpeg' },
    body: new Uint8Array(jpeg),
  });
  expect(upload.status).toBe(201);
  const { screenshotId } = (await upload.json()) as { screenshotId: string };
  const filed = await ada.api.call('POST', '/report/submit-report', {
    matchId,
    screenshot: screenshotId,
    reason: 'harassment',
    severity: 'high',
    details: 'DETAILS-SECRET he shouted',
  });
  expect(filed.status).toBe(201);
  const { reportId } = filed.body as { reportId: string };
  const banned = await admin.call('POST', `/admin/users/${bob.user._id}/ban`, {
    reason: 'REASON-SECRET harassment',
    level: 'moderate',
    penalty: { kind: 'restriction', days: 1 },
    reportId,
  });
  expect(banned.status).toBe(201);
  return { ada, bob, matchId, reportId };
}

/**
 * Ada and Bob paired by the app and their call on record (the `matches` read model), so either may report it. Their
 * sockets go into `open`, for the caller to close.
 */
export async function inACall(test: TestApp, open: VideoClient[]) {
  const ada = await videoUser(test.base, { firstName: 'Ada', gender: 'female' });
  const bob = await videoUser(test.base, { firstName: 'Bob', gender: 'male' });
  const [adaSocket, bobSocket] = [await ada.connect(), await bob.connect()];
  open.push(adaSocket, bobSocket);
  const found = nextEvent(adaSocket, 'matchFound');
  await adaSocket.emitWithAck('startMatching', { filters: ANYONE, deviceType: 'desktop' });
  await bobSocket.emitWithAck('startMatching', { filters: ANYONE, deviceType: 'desktop' });
  const { matchId } = await found;
  await expect
    .poll(() => test.db.selectFrom('matches').select('match_id').where('match_id', '=', matchId).executeTakeFirst())
    .toBeDefined();
  return { ada, bob, matchId };
}
