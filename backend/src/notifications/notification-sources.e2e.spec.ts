import { type NewNotificationPush, NOTIFICATION_PATHS, type NotificationView } from '@serendip/proto';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ExpireBans } from '../moderation/public/index.js';
import { eventSubject } from '../platform/messaging/subjects.js';
import { signedInAdmin } from '../test-support/admins.js';
import type { ApiClient } from '../test-support/api-client.js';
import { startTestApp, type TestApp } from '../test-support/test-app.js';
import {
  ANYONE,
  nextEvent,
  openSystemSocket,
  type SystemClient,
  type VideoClient,
  type VideoUser,
  videoUser,
} from '../test-support/video-users.js';

const path = (full: string) => full.replace(/^\/api/, '');
const BAN = {
  reason: 'Harassment in a call',
  level: 'minor',
  penalty: { kind: 'restriction', days: 7 },
  overrideReason: 'test',
};

/**
 * What moderation's outcomes tell people (spec 4 "Notifications"): the reporter whose report led to a ban, the
 * appellant when the appeal is decided, the banned user when the ban ends. Each once per cause.
 */
describe('notifications from moderation outcomes', () => {
  let test: TestApp;
  let admin: ApiClient;
  const open: (VideoClient | SystemClient)[] = [];

  beforeAll(async () => {
    test = await startTestApp();
    ({ admin } = await signedInAdmin(test));
  }, 60_000);
  afterEach(() => {
    for (const socket of open.splice(0)) socket.close();
  });
  afterAll(async () => {
    await test?.close();
  });

  async function listOf(user: VideoUser) {
    const res = await user.api.call('GET', path(NOTIFICATION_PATHS.list(user.user._id)));
    expect(res.status).toBe(200);
    return res.body as NotificationView[];
  }

  /** Polls until `user` has `count` notifications, then waits a while more to see no second copy arrive. */
  async function settledList(user: VideoUser, count: number) {
    await expect.poll(async () => (await listOf(user)).length, { timeout: 10_000 }).toBe(count);
    await new Promise((r) => setTimeout(r, 1_000));
    return listOf(user);
  }

  /** Ada and Bob in a call; the call's id. */
  async function call() {
    const ada = await videoUser(test.base, { firstName: 'Ada', gender: 'female' });
    const bob = await videoUser(test.base, { firstName: 'Bobbington', gender: 'male' });
    const [adaSocket, bobSocket] = [await ada.connect(), await bob.connect()];
    open.push(adaSocket, bobSocket);
    const adaFound = nextEvent(adaSocket, 'matchFound');
    await adaSocket.emitWithAck('startMatching', { filters: ANYONE, deviceType: 'desktop' });
    await bobSocket.emitWithAck('startMatching', { filters: ANYONE, deviceType: 'desktop' });
    const match = await adaFound;
    await expect
      .poll(() =>
        test.db.selectFrom('matches').select('match_id').where('match_id', '=', match.matchId).executeTakeFirst(),
      )
      .toBeDefined();
    return { ada, bob, matchId: match.matchId, partnerId: match.partnerId };
  }

  async function ban(user: VideoUser, extra: Record<string, unknown> = {}) {
    const res = await admin.call('POST', `/admin/users/${user.user._id}/ban`, { ...BAN, ...extra });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    return (res.body as { caseId: string }).caseId;
  }

  async function appeal(user: VideoUser) {
    const res = await user.api.call('PUT', `/user/appeal-ban/${user.user._id}`, {
      appealExplanation: 'It was not me, my brother used my phone.',
    });
    expect(res.status).toBe(200);
  }

  it('tells the reporter, live and once, that their report was acted on, without naming whom; the other side is told nothing of it', async () => {
    const { ada, bob, matchId, partnerId } = await call();
    const adaPage = await openSystemSocket(test.base, ada.api);
    open.push(adaPage);
    const pushed: NewNotificationPush[] = [];
    adaPage.on('newNotification', (n) => void pushed.push(n));
    const filed = await ada.api.call('POST', '/report/submit-report', {
      matchId,
      reportedUser: partnerId,
      reason: 'harassment',
      severity: 'high',
      type: 'videosession',
    });
    expect(filed.status).toBe(201);
    const { reportId } = filed.body as { reportId: string };
    await ban(bob, { reportId });

    const [told] = await settledList(ada, 1);
    expect(told).toMatchObject({
      kind: 'report-actioned',
      title: 'Your report was acted on',
      read: false,
      forceOpen: false,
      details: { reportId },
    });
    expect(JSON.stringify(told)).not.toMatch(/Bobbington|Harassment in a call/);
    expect(pushed).toEqual([expect.objectContaining({ _id: told!._id, kind: 'report-actioned' })]);
    // Bob's own list says nothing of Ada's report.
    expect((await listOf(bob)).map((n) => n.kind)).not.toContain('report-actioned');

    // The same event handled again (redelivered after a node died before acknowledging it: the bus's own repeat
    // filter does not see it as a repeat) tells no one twice.
    const [published] = await test.db
      .selectFrom('events')
      .select(['id', 'recorded_at'])
      .where('stream_id', '=', `moderation-report-${reportId}`)
      .where('type', '=', 'ReportResolved')
      .execute();
    await test.core.bus.publish({
      subject: eventSubject('moderation', 'ReportActioned'),
      id: `${published!.id}-redelivered`,
      data: {
        id: published!.id,
        context: 'moderation',
        type: 'ReportActioned',
        occurredAt: new Date().toISOString(),
        data: { reportId, reporterId: ada.user._id },
      },
    });
    expect(await settledList(ada, 1)).toHaveLength(1);
  });

  it('tells the appellant that the appeal was rejected, then that the ban was lifted; banned, they may read them', async () => {
    const bob = await videoUser(test.base, { firstName: 'Bob' });
    const caseId = await ban(bob);
    await appeal(bob);
    expect((await admin.call('POST', `/admin/bans/${caseId}/appeal`, { outcome: 'rejected', note: 'No' })).status).toBe(
      200,
    );
    const [rejected] = await settledList(bob, 1);
    expect(rejected).toMatchObject({
      kind: 'appeal-rejected',
      title: 'Your appeal was rejected',
      link: '/security-center/view-ban-history',
      details: { caseId },
    });
    expect((await admin.call('POST', `/admin/bans/${caseId}/unban`, { reason: 'Second look' })).status).toBe(200);
    const [lifted] = await settledList(bob, 2);
    expect(lifted).toMatchObject({ kind: 'ban-ended', title: 'Your restriction has been lifted', details: { caseId } });
  });

  it('tells of an approved appeal once (not again as a ban that ended), and of a ban that expired', async () => {
    const carl = await videoUser(test.base, { firstName: 'Carl' });
    const caseId = await ban(carl);
    await appeal(carl);
    expect((await admin.call('POST', `/admin/bans/${caseId}/appeal`, { outcome: 'approved', note: 'Ok' })).status).toBe(
      200,
    );
    expect((await settledList(carl, 1)).map((n) => [n.kind, n.title])).toEqual([
      ['appeal-approved', 'Your appeal was approved'],
    ]);

    const dan = await videoUser(test.base, { firstName: 'Dan' });
    await ban(dan);
    expect(await test.app.get(ExpireBans).expireDue(new Date(Date.now() + 8 * 86_400_000))).toBeGreaterThanOrEqual(1);
    expect((await settledList(dan, 1)).map((n) => [n.kind, n.title])).toEqual([
      ['ban-ended', 'Your restriction has ended'],
    ]);
  });
});
