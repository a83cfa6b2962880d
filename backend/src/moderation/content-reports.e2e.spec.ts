import { randomUUID } from 'node:crypto';
import { type CommentView, type DashReport, FEED_PATHS, MODERATION_PATHS, type PostView } from '@serendip/proto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signedInAdmin } from '../test-support/admins.js';
import type { ApiClient } from '../test-support/api-client.js';
import { startTestApp, type TestApp } from '../test-support/test-app.js';
import { openSystemSocket, VIDEO_USER_PASSWORD, videoUser } from '../test-support/video-users.js';

const path = (full: string) => full.replace(/^\/api/, '');

/**
 * Reporting what someone wrote in the feed into the same queue as calls: the server says who wrote it, the words are
 * kept with the report (deleting them hides nothing), one person reports one thing once, and nobody their own.
 */
describe('moderation: reports of posts, comments and replies', () => {
  let test: TestApp;
  let admin: ApiClient;

  beforeAll(async () => {
    test = await startTestApp();
    ({ admin } = await signedInAdmin(test));
  }, 60_000);
  afterAll(async () => {
    await test?.close();
  });

  const listed = async (reportId: string) =>
    ((await admin.call('GET', '/dash/report/get-all?page=1')).body as DashReport[]).find((r) => r._id === reportId);

  it("files a report of a comment with the comment's words, keeps them after the comment is deleted, and refuses a repeat or one's own", async () => {
    const [ada, bob] = [
      await videoUser(test.base, { firstName: 'Ada' }),
      await videoUser(test.base, { firstName: 'Bob' }),
    ];
    const post = (await ada.api.call('POST', path(FEED_PATHS.posts), { text: 'My post' })).body as PostView;
    const said = (
      await ada.api.call('POST', path(FEED_PATHS.comments(post._id)), { text: 'Buy followers at spam.example' })
    ).body as CommentView;
    const staff = await openSystemSocket(test.base, admin);
    const pushed: DashReport[] = [];
    staff.on('reportFiled', (r) => void pushed.push(r));
    await new Promise((r) => setTimeout(r, 300));

    const report = (who: ApiClient, body: Record<string, unknown>) =>
      who.call('POST', path(MODERATION_PATHS.reportContent), body);
    const filed = await report(bob.api, { kind: 'comment', id: said._id, reason: 'spam', details: 'Selling things' });
    expect(filed.status, JSON.stringify(filed.body)).toBe(201);
    const { reportId } = filed.body as { reportId: string };

    expect(await listed(reportId)).toMatchObject({
      type: 'comment',
      reason: 'spam',
      severity: 'low',
      status: 'open',
      reportedByWho: { _id: bob.user._id, firstName: 'Bob' },
      reportedUser: { _id: ada.user._id, firstName: 'Ada' },
      details: 'Selling things',
      content: { postId: post._id, id: said._id, text: 'Buy followers at spam.example' },
    });
    await expect.poll(() => pushed.map((r) => r._id)).toContain(reportId);
    staff.close();

    expect((await report(bob.api, { kind: 'comment', id: said._id, reason: 'spam' })).status).toBe(409);
    expect((await report(ada.api, { kind: 'post', id: post._id, reason: 'spam' })).status).toBe(403);
    expect((await report(bob.api, { kind: 'post', id: said._id, reason: 'spam' })).status).toBe(404);
    expect((await report(bob.api, { kind: 'reply', id: randomUUID(), reason: 'spam' })).status).toBe(404);
    for (const bad of [
      {},
      { kind: 'user', id: said._id, reason: 'spam' },
      { kind: 'comment', id: 'x', reason: 'spam' },
      { kind: 'comment', id: said._id, reason: 'rude' },
      { kind: 'comment', id: said._id, reason: 'spam', details: 'x'.repeat(1_001) },
    ]) {
      const res = await report(bob.api, bad);
      expect(`${JSON.stringify(bad)} -> ${res.status}`).toBe(`${JSON.stringify(bad)} -> 400`);
    }
    expect((await fetch(`${test.base}${MODERATION_PATHS.reportContent}`, { method: 'POST' })).status).toBe(401);

    // Deleting the comment takes nothing from the report; deleting the account takes her words.
    expect((await ada.api.call('DELETE', path(FEED_PATHS.comment(said._id)))).status).toBe(204);
    expect((await listed(reportId))?.content?.text).toBe('Buy followers at spam.example');
    expect((await ada.api.call('POST', '/user/delete-account', { currentPassword: VIDEO_USER_PASSWORD })).status).toBe(
      200,
    );
    await expect
      .poll(async () => (await listed(reportId))?.content, { timeout: 10_000 })
      .toEqual({
        postId: post._id,
        id: said._id,
      });
  });
});
