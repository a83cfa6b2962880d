import { randomUUID } from 'node:crypto';
import {
  type CommentView,
  type DashRemovalAppeal,
  FEED_LIMITS,
  FEED_PATHS,
  NOTIFICATION_PATHS,
  type ActivityPage,
  type PostView,
} from '@serendip/proto';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { signedInAdmin, signedInModerator } from '../test-support/admins.js';
import type { ApiClient } from '../test-support/api-client.js';
import { apiPath, banForADay, feedActions } from '../test-support/feed-actions.js';
import { startTestApp, type TestApp } from '../test-support/test-app.js';
import { type SystemClient, type VideoUser, videoUser } from '../test-support/video-users.js';
import { FEED_WRITE_LIMITS } from './http/feed.controller.js';

const path = apiPath;

/**
 * The feed's security rules over the real app: guards before bodies, no acting on another's things, removed words seen
 * only by their author and staff (on pages and live), the peer page's fields, sealed texts, write limits, and what a
 * deleted account leaves behind.
 */
describe('feed security', () => {
  let test: TestApp;
  let admin: ApiClient;
  const open: SystemClient[] = [];

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

  const person = (firstName: string) => videoUser(test.base, { firstName });

  const { publish, comment, reply, postAs, textsOn, pageOf } = feedActions(() => test, open);

  it('turns a guest, a banned user and a non-staff user away before it reads their body', async () => {
    const [ada, bob] = [await person('Ada'), await person('Bob')];
    const post = await publish(ada, 'Guarded');
    const said = await comment(ada, post._id, 'Guarded too');

    // A guest: 401 whatever the body (an empty one would be a 400 if it were read first).
    for (const [method, url] of [
      ['POST', FEED_PATHS.posts],
      ['POST', FEED_PATHS.comments(post._id)],
      ['POST', FEED_PATHS.appealRemoval(said._id)],
      ['GET', FEED_PATHS.peer(ada.user._id)],
      ['GET', FEED_PATHS.activity],
      ['POST', FEED_PATHS.remove(said._id)],
    ] as const) {
      const res = await fetch(`${test.base}${url}`, {
        method,
        headers: { 'Content-Type': 'application/json' },
        ...(method === 'GET' ? {} : { body: '{}' }),
      });
      expect(`${method} ${url} -> ${res.status}`).toBe(`${method} ${url} -> 401`);
    }

    // A signed-in user who is not staff: the dashboard's feed routes answer 403, with or without a good body.
    for (const body of [{}, { reason: 'Spam' }])
      expect((await bob.api.call('POST', path(FEED_PATHS.remove(said._id)), body)).status).toBe(403);
    for (const body of [{}, { outcome: 'approved' }])
      expect((await bob.api.call('POST', path(FEED_PATHS.decideRemovalAppeal(said._id)), body)).status).toBe(403);
    expect((await bob.api.call('GET', path(FEED_PATHS.removalAppeals))).status).toBe(403);
    expect(await textsOn(ada.api, post._id)).toEqual(['Guarded too']);

    // Banned: 403 on every feed route before the body, and nothing written.
    const ban = await admin.call('POST', `/admin/users/${bob.user._id}/ban`, {
      reason: 'Spam',
      level: 'moderate',
      penalty: { kind: 'restriction', days: 1 },
    });
    expect(ban.status).toBe(201);
    for (const [method, url, body] of [
      ['POST', FEED_PATHS.posts, {}],
      ['POST', FEED_PATHS.posts, { text: 'Banned words' }],
      ['POST', FEED_PATHS.comments(post._id), { text: 'Banned words' }],
      ['POST', FEED_PATHS.replies(said._id), { text: 'Banned words' }],
      ['PUT', FEED_PATHS.like(post._id), undefined],
      ['GET', FEED_PATHS.posts, undefined],
      ['GET', FEED_PATHS.post(post._id), undefined],
      ['GET', FEED_PATHS.peer(ada.user._id), undefined],
    ] as const) {
      const res = await bob.api.call(method, path(url), body);
      expect(`${method} ${url} -> ${res.status}`).toBe(`${method} ${url} -> 403`);
    }
    expect((await postAs(ada.api, post._id)).post).toMatchObject({ likeCount: 0, commentCount: 1 });
  });

  it("refuses acting on another user's comment, reply or removal, whichever route names it", async () => {
    const [ada, bob] = [await person('Ada'), await person('Bob')];
    const post = await publish(ada, 'Mine');
    const adaComment = await comment(ada, post._id, 'My comment');
    const adaReply = await reply(ada, adaComment._id, 'My reply');
    const removed = await comment(ada, post._id, 'what the f u c k');
    expect(removed.removed).toMatchObject({ by: 'filter' });

    // A reply's id on the comment route (and the other way round) names nothing there.
    expect((await bob.api.call('DELETE', path(FEED_PATHS.comment(adaReply._id)))).status).toBe(404);
    expect((await bob.api.call('DELETE', path(FEED_PATHS.reply(adaComment._id)))).status).toBe(404);
    expect((await bob.api.call('DELETE', path(FEED_PATHS.comment(removed._id)))).status).toBe(403);
    // Ada's removal is hers to appeal.
    const appeal = await bob.api.call('POST', path(FEED_PATHS.appealRemoval(removed._id)), { explanation: 'Mine!' });
    expect(appeal.status).toBe(403);
    expect(appeal.body).toMatchObject({ message: 'You can only appeal the removal of your own comment.' });
    // Nobody's id in a body is taken: the author is always the caller.
    const spoof = await bob.api.call('POST', path(FEED_PATHS.posts), { text: 'As Ada', authorId: ada.user._id });
    expect((spoof.body as PostView).author._id).toBe(bob.user._id);

    expect(await textsOn(admin, post._id)).toEqual(['My comment', 'My reply', 'what the f u c k']);
    expect((await admin.call('GET', path(FEED_PATHS.removalAppeals))).body as DashRemovalAppeal[]).not.toContainEqual(
      expect.objectContaining({ _id: removed._id }),
    );
  });

  it('shows a removed reply only to its author and staff, and pushes it live only to admins', async () => {
    const [ada, bob, cleo] = [await person('Ada'), await person('Bob'), await person('Cleo')];
    const post = await publish(ada, 'Be kind');
    const adaComment = await comment(ada, post._id, 'Hello all');
    const [adaPage, bobPage, adminPage] = [await pageOf(ada.api), await pageOf(bob.api), await pageOf(admin)];

    const bad = await reply(cleo, adaComment._id, 'shut up you s h i t');
    expect(bad.removed).toMatchObject({ by: 'filter', categories: ['Profanity'] });
    await expect
      .poll(() => adminPage.find((p) => p.event === 'newReply')?.payload)
      .toMatchObject({ reply: { _id: bad._id, removed: { by: 'filter' } } });
    // The admin's push came first: give the others' a moment, then none may carry it.
    await new Promise((r) => setTimeout(r, 500));
    for (const page of [adaPage, bobPage]) expect(JSON.stringify(page)).not.toContain(bad._id);

    expect(await textsOn(ada.api, post._id)).toEqual(['Hello all']);
    expect(await textsOn(bob.api, post._id)).toEqual(['Hello all']);
    expect(await textsOn(cleo.api, post._id)).toEqual(['Hello all', 'shut up you s h i t']);
    expect(await textsOn(admin, post._id)).toEqual(['Hello all', 'shut up you s h i t']);
    // Ada, whose comment it answered, is not told of it either.
    await new Promise((r) => setTimeout(r, 500));
    const adaNotices = await ada.api.call('GET', path(NOTIFICATION_PATHS.list(ada.user._id)));
    expect(JSON.stringify(adaNotices.body)).not.toContain('replied');
  });

  it('shows on the peer page only first name, avatar, age, country, bio and the admin flag', async () => {
    const [ada, bob] = [await person('Ada'), await person('Bob')];
    const res = await ada.api.call('GET', path(FEED_PATHS.peer(bob.user._id)));
    expect(res.status).toBe(200);
    const allowed = ['_id', 'firstName', 'avatar', 'age', 'country', 'bio', 'isAdmin'];
    expect(Object.keys(res.body as object).filter((k) => !allowed.includes(k))).toEqual([]);
    expect(res.body).toMatchObject({ _id: bob.user._id, firstName: 'Bob', isAdmin: false, age: expect.any(Number) });
    // A comment or post names its author the same way: id, first name, avatar, admin flag.
    const post = await publish(bob, 'Who am I');
    expect(Object.keys(post.author).sort()).toEqual(['_id', 'avatar', 'firstName', 'isAdmin']);
  });

  it('answers bad input with 400 and the field, and ids that name nothing with 404, never a 500', async () => {
    const ada = await person('Ada');
    const post = await publish(ada, 'Input');
    const removed = await comment(ada, post._id, 'f.u.c.k this');
    for (const [url, body, field] of [
      [FEED_PATHS.comments(post._id), { text: 'x'.repeat(FEED_LIMITS.comment + 1) }, 'text'],
      [FEED_PATHS.comments(post._id), { text: null }, 'text'],
      [FEED_PATHS.appealRemoval(removed._id), { explanation: 5 }, 'explanation'],
      [FEED_PATHS.appealRemoval(removed._id), { explanation: '  ' }, 'explanation'],
    ] as const) {
      const res = await ada.api.call('POST', path(url), body);
      expect(`${url} -> ${res.status}`).toBe(`${url} -> 400`);
      expect(JSON.stringify(res.body)).toContain(field);
    }
    for (const [url, body, field] of [
      [FEED_PATHS.remove(removed._id), { reason: '' }, 'reason'],
      [FEED_PATHS.decideRemovalAppeal(removed._id), { outcome: 'maybe' }, 'outcome'],
      [FEED_PATHS.decideRemovalAppeal(removed._id), { outcome: 'approved', note: 7 }, 'note'],
    ] as const) {
      const res = await admin.call('POST', path(url), body);
      expect(`${url} -> ${res.status}`).toBe(`${url} -> 400`);
      expect(JSON.stringify(res.body)).toContain(field);
    }
    for (const [client, method, url, body] of [
      [ada.api, 'DELETE', FEED_PATHS.comment('not-an-id'), undefined],
      [ada.api, 'DELETE', FEED_PATHS.reply("1' or '1'='1"), undefined],
      [ada.api, 'POST', FEED_PATHS.appealRemoval('x'.repeat(500)), { explanation: 'Please' }],
      [ada.api, 'GET', FEED_PATHS.userPosts('not-an-id'), undefined],
      [ada.api, 'GET', FEED_PATHS.peer('not-an-id'), undefined],
      [admin, 'POST', FEED_PATHS.remove('not-an-id'), { reason: 'Spam' }],
      [admin, 'POST', FEED_PATHS.decideRemovalAppeal(randomUUID()), { outcome: 'approved' }],
    ] as const) {
      const res = await client.call(method, path(url), body);
      expect(`${method} ${url} -> ${res.status}`).toBe(`${method} ${url} -> 404`);
    }
    // A cursor given twice is no cursor from a page.
    for (const url of [FEED_PATHS.posts, FEED_PATHS.activity]) {
      const res = await ada.api.call('GET', `${path(url)}?cursor=a&cursor=b`);
      expect(`${url} -> ${res.status}`).toBe(`${url} -> 400`);
      expect(res.body).toMatchObject({ message: ['cursor: must be a cursor from the previous page'] });
    }
  });

  it("keeps what people write sealed in the log and out of the app's log", async () => {
    const ada = await person('Ada');
    const secret = `sealed-words-${randomUUID()}`;
    const post = await publish(ada, `Post ${secret}`);
    const said = await comment(ada, post._id, `Comment ${secret}`);
    const bad = await reply(ada, said._id, `f u c k ${secret}`);
    const appeal = await ada.api.call('POST', path(FEED_PATHS.appealRemoval(bad._id)), {
      explanation: `Appeal ${secret}`,
    });
    expect(appeal.status).toBe(204);

    const events = await test.db
      .selectFrom('events')
      .select(['type', 'data'])
      .where('stream_id', 'in', [`feed-post-${post._id}`, `feed-comment-${said._id}`, `feed-reply-${bad._id}`])
      .execute();
    expect(events.map((e) => e.type).sort()).toEqual(
      ['CommentAdded', 'PostPublished', 'RemovalAppealed', 'ReplyAdded', 'ReplyRemoved'].sort(),
    );
    expect(JSON.stringify(events)).not.toContain(secret);
    const logged = await test.db.selectFrom('app_log').select('message').execute();
    expect(JSON.stringify(logged)).not.toContain(secret);
  });

  it('stops a script publishing posts past the hourly limit with 429', async () => {
    const ada = await person('Ada');
    for (let i = 0; i < FEED_WRITE_LIMITS.posts.points; i++) await publish(ada, `Post ${i}`);
    const refused = await ada.api.call('POST', path(FEED_PATHS.posts), { text: 'One too many' });
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).toMatch(/^\d+$/);
  });

  it("deletes a deleted account's comments, replies and pending appeal from everyone's pages", async () => {
    const [ada, bob] = [await person('Ada'), await person('Bob')];
    const post = await publish(ada, 'Stay');
    const adaComment = await comment(ada, post._id, 'Ada here');
    await comment(bob, post._id, 'Bob here');
    await reply(bob, adaComment._id, 'Bob replies');
    const bad = await comment(bob, post._id, 'Bob says f u c k');
    const appeal = await bob.api.call('POST', path(FEED_PATHS.appealRemoval(bad._id)), { explanation: 'Sorry' });
    expect(appeal.status).toBe(204);
    const pending = async () =>
      ((await admin.call('GET', path(FEED_PATHS.removalAppeals))).body as DashRemovalAppeal[]).map((a) => a._id);
    expect(await pending()).toContain(bad._id);

    const gone = await bob.api.call('POST', '/user/delete-account', { currentPassword: 'violet-harbour-42' });
    expect(gone.status).toBe(200);
    await expect.poll(() => textsOn(admin, post._id), { timeout: 10_000 }).toEqual(['Ada here']);
    expect(await textsOn(ada.api, post._id)).toEqual(['Ada here']);
    expect((await postAs(ada.api, post._id)).post.commentCount).toBe(1);
    expect(await pending()).not.toContain(bad._id);
    const rows = await test.db.selectFrom('feed_contributions').select('id').where('author_id', '=', bob.user._id);
    expect(await rows.execute()).toEqual([]);
  });
  // Findings of the security review (fail on the code as reviewed).
  const ban = (user: VideoUser) => banForADay(admin, user);

  it('does not let a staff member decide the appeal of their own removed comment', async () => {
    const ada = await person('Ada');
    const post = await publish(ada, 'Hello');
    const { moderator } = await signedInModerator(test);
    const res = await moderator.call('POST', path(FEED_PATHS.comments(post._id)), { text: 'f u c k you all' });
    const bad = res.body as CommentView;
    expect(bad.removed).toMatchObject({ by: 'filter' });
    const appeal = await moderator.call('POST', path(FEED_PATHS.appealRemoval(bad._id)), { explanation: 'Mine' });
    expect(appeal.status).toBe(204);
    const decided = await moderator.call('POST', path(FEED_PATHS.decideRemovalAppeal(bad._id)), {
      outcome: 'approved',
    });
    expect(decided.status).toBe(403);
    expect(await textsOn(ada.api, post._id)).toEqual([]);
  });

  it('answers a cursor past any position with 400, not 500', async () => {
    const ada = await person('Ada');
    const beyond = (digits: string) => Buffer.from(digits, 'utf8').toString('base64url');
    const answers: string[] = [];
    for (const url of [
      `${FEED_PATHS.posts}?cursor=${beyond('9999999999999999999')}`,
      `${FEED_PATHS.userPosts(ada.user._id)}?cursor=${beyond('9999999999999999999')}`,
      `${FEED_PATHS.activity}?cursor=${beyond('9999999999999999')}`,
    ]) {
      const res = await ada.api.call('GET', path(url));
      answers.push(`${url} -> ${res.status}`);
    }
    expect(answers).toEqual(answers.map((a) => a.replace(/\d+$/, '400')));
  });

  it("hides a banned author's post from the activity of those who liked it", async () => {
    const [ada, bob] = [await person('Ada'), await person('Bob')];
    const post = await publish(bob, "Bob's words");
    expect((await ada.api.call('PUT', path(FEED_PATHS.like(post._id)))).status).toBe(200);
    await ban(bob);
    await expect.poll(async () => (await postAs(ada.api, post._id)).status, { timeout: 10_000 }).toBe(404);
    const activity = (await ada.api.call('GET', path(FEED_PATHS.activity))).body as ActivityPage;
    expect(JSON.stringify(activity)).not.toContain("Bob's words");
  });

  it("refuses liking or commenting a banned author's hidden post as it refuses reading it", async () => {
    const [ada, bob] = [await person('Ada'), await person('Bob')];
    const post = await publish(bob, 'Hidden soon');
    await ban(bob);
    await expect.poll(async () => (await postAs(ada.api, post._id)).status, { timeout: 10_000 }).toBe(404);
    expect((await ada.api.call('PUT', path(FEED_PATHS.like(post._id)))).status).toBe(404);
    expect((await ada.api.call('POST', path(FEED_PATHS.comments(post._id)), { text: 'Hi' })).status).toBe(404);
  });

  it("does not push a banned author's comment to everyone when its removal's appeal is approved", async () => {
    const [ada, cleo] = [await person('Ada'), await person('Cleo')];
    const post = await publish(ada, 'Open');
    const bad = await comment(cleo, post._id, 'Cleo says f u c k off');
    const appeal = await cleo.api.call('POST', path(FEED_PATHS.appealRemoval(bad._id)), { explanation: 'Joke' });
    expect(appeal.status).toBe(204);
    await ban(cleo);
    // Hidden from everyone, staff too, once the ban is on.
    await expect.poll(() => textsOn(admin, post._id), { timeout: 10_000 }).toEqual([]);
    const [adaPage, adminPage] = [await pageOf(ada.api), await pageOf(admin)];

    const decided = await admin.call('POST', path(FEED_PATHS.decideRemovalAppeal(bad._id)), { outcome: 'approved' });
    expect(decided.status).toBe(204);
    await expect.poll(() => adminPage.some((p) => p.event === 'newComment')).toBe(true);
    await new Promise((r) => setTimeout(r, 500));
    expect(await textsOn(ada.api, post._id)).toEqual([]);
    expect(JSON.stringify(adaPage)).not.toContain('Cleo says');
  });

  it("does not push others' comments to a banned user's open page, which may not read the feed", async () => {
    const [ada, bob, cleo] = [await person('Ada'), await person('Bob'), await person('Cleo')];
    await ban(bob);
    expect((await bob.api.call('GET', path(FEED_PATHS.posts))).status).toBe(403);
    const bobPage = await pageOf(bob.api);
    const post = await publish(ada, 'Public');
    await comment(cleo, post._id, 'Cleo was here');
    const adaPage = await pageOf(ada.api);
    await comment(cleo, post._id, 'Cleo again');
    await expect.poll(() => JSON.stringify(adaPage)).toContain('Cleo again');
    expect(JSON.stringify(bobPage)).not.toContain('Cleo');
  });
  it("does not let a moderator overrule an admin's removal by approving its appeal", async () => {
    const [ada, bob] = [await person('Ada'), await person('Bob')];
    const post = await publish(ada, 'Moderated');
    const said = await comment(bob, post._id, 'Borderline words');
    expect((await admin.call('POST', path(FEED_PATHS.remove(said._id)), { reason: 'Harassment' })).status).toBe(204);
    const appeal = await bob.api.call('POST', path(FEED_PATHS.appealRemoval(said._id)), { explanation: 'Unfair' });
    expect(appeal.status).toBe(204);
    const { moderator } = await signedInModerator(test);
    const decided = await moderator.call('POST', path(FEED_PATHS.decideRemovalAppeal(said._id)), {
      outcome: 'approved',
    });
    expect(decided.status).toBe(403);
    expect(await textsOn(ada.api, post._id)).toEqual([]);
  });

  it("seals a staff member's removal reason in the log, as a ban's reason is", async () => {
    const [ada, bob] = [await person('Ada'), await person('Bob')];
    const post = await publish(ada, 'Reasons');
    const said = await comment(bob, post._id, 'Something');
    const secret = `reason-${randomUUID()}`;
    const reason = `Bob's words about ${secret}`;
    expect((await admin.call('POST', path(FEED_PATHS.remove(said._id)), { reason })).status).toBe(204);
    const events = await test.db
      .selectFrom('events')
      .select(['type', 'data'])
      .where('stream_id', '=', `feed-comment-${said._id}`)
      .execute();
    expect(events.map((e) => e.type)).toEqual(['CommentAdded', 'CommentRemoved']);
    expect(JSON.stringify(events)).not.toContain(secret);
  });
  it('removes profanity hidden by invisible characters, accents or punctuation between letters', async () => {
    const [ada, cleo] = [await person('Ada'), await person('Cleo')];
    const post = await publish(ada, 'Filter');
    const slipped: string[] = [];
    for (const text of [
      'f\u200bu\u200bc\u200bk you',
      'f\u00adu\u00adc\u00adk you',
      'f\u0301uck you',
      'f/u/c/k you',
      'f,u,c,k you',
      'motherf u c k e r',
    ]) {
      const said = await comment(cleo, post._id, text);
      if (!said.removed) slipped.push(JSON.stringify(text));
    }
    expect(slipped).toEqual([]);
  });
});
