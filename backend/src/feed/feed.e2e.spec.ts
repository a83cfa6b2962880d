import { randomUUID } from 'node:crypto';
import {
  type AuditTrailPage,
  type DashRemovalAppeal,
  FEED_LIMITS,
  FEED_PAGE_SIZE,
  FEED_PATHS,
  type FeedPage,
  type LikesView,
  type NotificationView,
  NOTIFICATION_PATHS,
  type PostView,
  type ReplyView,
} from '@serendip/proto';
import sharp from 'sharp';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { signedInAdmin } from '../test-support/admins.js';
import type { ApiClient } from '../test-support/api-client.js';
import { apiPath, feedActions } from '../test-support/feed-actions.js';
import { startTestApp, type TestApp } from '../test-support/test-app.js';
import { type SystemClient, type VideoUser, videoUser } from '../test-support/video-users.js';

const path = apiPath;

/**
 * The feed over the real app (spec 3 Post/Comment/Reply, 4 "Live content merging", 5, 7): who may change what, likes
 * one per person, keyset paging, the profanity filter's removal with its forced notice and appeal, and the live pushes
 * each kind of viewer gets.
 */
describe('feed: posts, likes, comments, replies', () => {
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

  const { publish, comment, postAs, pageOf } = feedActions(() => test, open);

  it("refuses deleting or editing another user's post, comment or reply, and a guest", async () => {
    const [ada, bob] = [await person('Ada'), await person('Bob')];
    const post = await publish(ada, 'Hello, world');
    const adaComment = await comment(ada, post._id, 'First!');
    const reply = await ada.api.call('POST', path(FEED_PATHS.replies(adaComment._id)), { text: 'Me again' });
    expect(reply.status).toBe(201);
    const replyId = (reply.body as ReplyView)._id;

    for (const url of [FEED_PATHS.post(post._id), FEED_PATHS.comment(adaComment._id), FEED_PATHS.reply(replyId)]) {
      const res = await bob.api.call('DELETE', path(url));
      expect(`${url} -> ${res.status}`).toBe(`${url} -> 403`);
      expect(res.body).toMatchObject({ message: 'You can only delete what you wrote.' });
    }
    // There is no editing at all: not of one's own, nor of another's.
    for (const method of ['PUT', 'PATCH'] as const) {
      expect((await bob.api.call(method, path(FEED_PATHS.post(post._id)), { text: 'Hacked' })).status).toBe(404);
    }
    expect((await fetch(`${test.base}${FEED_PATHS.posts}`)).status).toBe(401);
    expect((await fetch(`${test.base}${FEED_PATHS.post(post._id)}`, { method: 'DELETE' })).status).toBe(401);

    const { post: still } = await postAs(bob.api, post._id);
    expect(still.text).toBe('Hello, world');
    expect(still.comments.map((c) => [c.text, c.replies.map((r) => r.text)])).toEqual([['First!', ['Me again']]]);
    // Comments, not replies: what the post's page lists.
    expect(still.commentCount).toBe(1);

    // The author may: the reply, then the post (its comments go with it).
    expect((await ada.api.call('DELETE', path(FEED_PATHS.reply(replyId)))).status).toBe(204);
    expect((await ada.api.call('DELETE', path(FEED_PATHS.post(post._id)))).status).toBe(204);
    expect(await postAs(bob.api, post._id)).toMatchObject({
      status: 404,
      post: { message: 'This post no longer exists.' },
    });
    expect((await ada.api.call('DELETE', path(FEED_PATHS.post(post._id)))).status).toBe(404);
    expect((await bob.api.call('POST', path(FEED_PATHS.comments(post._id)), { text: 'Late' })).status).toBe(404);
  });

  it('answers bad input with 400 and the field, and unknown ids with 404, changing nothing', async () => {
    const ada = await person('Ada');
    for (const body of [{}, { text: '' }, { text: '   ' }, { text: 'x'.repeat(FEED_LIMITS.post + 1) }, { text: 42 }]) {
      const res = await ada.api.call('POST', path(FEED_PATHS.posts), body);
      expect(res.status).toBe(400);
      expect(JSON.stringify(res.body)).toMatch(/text/);
    }
    expect((await ada.api.call('GET', `${path(FEED_PATHS.posts)}?cursor=%27;drop`)).status).toBe(400);
    expect((await ada.api.call('GET', `${path(FEED_PATHS.posts)}?cursor=abc`)).body).toMatchObject({
      message: ['cursor: must be a cursor from the previous page'],
    });
    for (const [method, url] of [
      ['GET', FEED_PATHS.post('not-an-id')],
      ['GET', FEED_PATHS.post(randomUUID())],
      ['PUT', FEED_PATHS.like(randomUUID())],
      ['POST', FEED_PATHS.comments('%00')],
      ['POST', FEED_PATHS.replies(randomUUID())],
      ['DELETE', FEED_PATHS.comment(randomUUID())],
      ['GET', FEED_PATHS.peer(randomUUID())],
    ] as const) {
      const res = await ada.api.call(method, path(url), method === 'GET' ? undefined : { text: 'hi' });
      expect(`${method} ${url} -> ${res.status}`).toBe(`${method} ${url} -> 404`);
    }
    const mine = (await ada.api.call('GET', path(FEED_PATHS.userPosts(ada.user._id)))).body as FeedPage;
    expect(mine.items).toEqual([]);
  });

  it('counts one like per person: a second like or unlike changes nothing, ten at once count once', async () => {
    const [ada, bob] = [await person('Ada'), await person('Bob')];
    const post = await publish(ada, 'Like me');
    const like = () => bob.api.call('PUT', path(FEED_PATHS.like(post._id)));
    expect((await like()).body).toMatchObject({ likeCount: 1, likes: [bob.user._id], likedByMe: true });
    expect((await like()).body).toMatchObject({ likeCount: 1, likes: [bob.user._id], likedByMe: true });
    await Promise.all(Array.from({ length: 10 }, like));
    expect((await postAs(ada.api, post._id)).post).toMatchObject({ likeCount: 1, likedByMe: false });
    expect((await postAs(bob.api, post._id)).post).toMatchObject({ likeCount: 1, likedByMe: true });

    const unlike = () => bob.api.call('DELETE', path(FEED_PATHS.like(post._id)));
    expect((await unlike()).body).toEqual({ postId: post._id, likes: [], likeCount: 0, likedByMe: false });
    expect(((await unlike()).body as LikesView).likeCount).toBe(0);
    expect((await ada.api.call('PUT', path(FEED_PATHS.like(post._id)))).body).toMatchObject({ likeCount: 1 });
  });

  it('pages the feed newest first, every post once, while others keep posting', async () => {
    const writers = await Promise.all(['Ada', 'Bob', 'Cleo'].map(person));
    const reader = await person('Dee');
    const before: string[] = [];
    for (let i = 0; i < 45; i++) before.push((await publish(writers[i % 3]!, `Before ${i}`))._id);

    const seen: string[] = [];
    let cursor: string | undefined;
    let posting: Promise<unknown> = Promise.resolve();
    let pages = 0;
    do {
      const res = await reader.api.call(
        'GET',
        path(FEED_PATHS.posts) + (cursor ? `?cursor=${encodeURIComponent(cursor)}` : ''),
      );
      expect(res.status).toBe(200);
      const page = res.body as FeedPage;
      expect(page.items.length).toBeLessThanOrEqual(FEED_PAGE_SIZE);
      seen.push(...page.items.map((p) => p._id));
      cursor = page.next;
      // Between pages, ten more posts arrive at once.
      if (pages++ === 0)
        posting = Promise.all(
          writers.flatMap((w) => [1, 2, 3].map((i) => publish(w, `During ${w.user.firstName} ${i}`))),
        );
      await posting;
    } while (cursor);

    expect(new Set(seen).size).toBe(seen.length);
    const mine = seen.filter((id) => before.includes(id));
    // All 45, newest first: the order they were published in, reversed.
    expect(mine).toEqual([...before].reverse());
  });

  it('removes a comment with obfuscated profanity at once: others never see it, its author is told and may appeal', async () => {
    const [ada, cleo] = [await person('Ada'), await person('Cleo')];
    const post = await publish(ada, 'Be nice');
    const adaPage = await pageOf(ada.api);
    const adminPage = await pageOf(admin);
    const cleoPage = await pageOf(cleo.api);

    const bad = await comment(cleo, post._id, 'you are a f u c k i n g idiot');
    expect(bad.removed).toMatchObject({ by: 'filter', categories: ['Profanity'] });
    // Ada (not staff) never gets it; the author sees it, flagged; staff see it, flagged.
    expect((await postAs(ada.api, post._id)).post).toMatchObject({ comments: [], commentCount: 0 });
    expect((await postAs(cleo.api, post._id)).post.comments).toEqual([
      expect.objectContaining({ _id: bad._id, removed: expect.objectContaining({ by: 'filter' }) }),
    ]);
    expect((await postAs(admin, post._id)).post.comments.map((c) => c._id)).toEqual([bad._id]);

    // The forced 'Comment Removed' notice, with the words, the date and the violations.
    await expect
      .poll(async () => (await cleo.api.call('GET', path(NOTIFICATION_PATHS.forceOpen(cleo.user._id)))).body, {
        timeout: 10_000,
      })
      .toEqual([
        expect.objectContaining({
          kind: 'comment-removed',
          title: 'Comment Removed',
          forceOpen: true,
          details: expect.objectContaining({
            text: 'you are a f u c k i n g idiot',
            postedAt: bad.createdAt,
            categories: ['Profanity'],
            removedId: bad._id,
          }),
        }),
      ]);
    await expect.poll(() => cleoPage.map((p) => p.event)).toContain('newNotification');
    // Live: only admins were pushed it; Ada's page got nothing of it, and Ada was not told of a comment.
    await expect.poll(() => adminPage.some((p) => p.event === 'newComment')).toBe(true);
    expect(adaPage.filter((p) => p.event === 'CommentReplyBadWord' || p.event === 'newComment')).toEqual([]);

    // Appeal once; staff see it beside ban appeals; approved, it is shown again and Cleo is told.
    const appeal = (who: VideoUser) =>
      who.api.call('POST', path(FEED_PATHS.appealRemoval(bad._id)), { explanation: 'I was quoting a film.' });
    expect((await appeal(ada)).status).toBe(403);
    expect((await postAs(cleo.api, post._id)).post.comments[0]?.removed?.appeal).toBe('none');
    expect((await appeal(cleo)).status).toBe(204);
    expect((await appeal(cleo)).body).toMatchObject({ message: 'You have appealed this removal already.' });
    expect((await postAs(cleo.api, post._id)).post.comments[0]?.removed?.appeal).toBe('pending');
    expect((await cleo.api.call('GET', path(FEED_PATHS.removalAppeals))).status).toBe(403);
    const pending = (await admin.call('GET', path(FEED_PATHS.removalAppeals))).body as DashRemovalAppeal[];
    expect(pending.find((a) => a._id === bad._id)).toMatchObject({
      kind: 'comment',
      text: 'you are a f u c k i n g idiot',
      explanation: 'I was quoting a film.',
      author: { _id: cleo.user._id, firstName: 'Cleo' },
    });
    const decide = await admin.call('POST', path(FEED_PATHS.decideRemovalAppeal(bad._id)), {
      outcome: 'approved',
      note: 'Quoting is fine.',
    });
    expect(decide.status).toBe(204);
    expect((await postAs(ada.api, post._id)).post).toMatchObject({ commentCount: 1, comments: [{ _id: bad._id }] });
    // Told, with the admin's note.
    await expect
      .poll(
        async () =>
          ((await cleo.api.call('GET', path(NOTIFICATION_PATHS.list(cleo.user._id)))).body as NotificationView[]).find(
            (n) => n.kind === 'removal-appeal-decided',
          )?.description,
      )
      .toBe('We looked at your comment again and put it back. Note from our team: Quoting is fine.');
    expect(
      ((await cleo.api.call('GET', path(NOTIFICATION_PATHS.list(cleo.user._id)))).body as NotificationView[]).find(
        (n) => n.kind === 'comment-removed',
      )?.details,
    ).toMatchObject({ removedBy: 'filter' });

    // Taken down again by staff: every page is told it is gone, marked as a removal; the reason goes to Cleo alone.
    const cleoLater = await pageOf(cleo.api);
    const removal = await admin.call('POST', path(FEED_PATHS.remove(bad._id)), { reason: 'Too rude after all' });
    expect(removal.status).toBe(204);
    await expect
      .poll(() => cleoLater.find((p) => p.event === 'commentDeleted')?.payload)
      .toMatchObject({ commentId: bad._id, removed: true });
    expect(JSON.stringify(cleoLater.filter((p) => p.event === 'commentDeleted'))).not.toContain('Too rude');
    await expect
      .poll(
        async () =>
          ((await cleo.api.call('GET', path(NOTIFICATION_PATHS.forceOpen(cleo.user._id)))).body as NotificationView[])
            .map((n) => n.details)
            .at(-1),
        { timeout: 10_000 },
      )
      .toMatchObject({ removedBy: 'staff', categories: ['Too rude after all'] });

    // Every step is in Cleo's audit trail, the decision with the admin who made it.
    const trail = async () =>
      ((await admin.call('GET', `/dash/users/${cleo.user._id}/audit-trail?page=1`)).body as AuditTrailPage).items;
    await expect
      .poll(async () => (await trail()).map((e) => e.type), { timeout: 10_000 })
      .toEqual(expect.arrayContaining(['CommentAdded', 'CommentRemoved', 'RemovalAppealed', 'RemovalAppealDecided']));
    expect((await trail()).find((e) => e.type === 'RemovalAppealDecided')?.actor).toMatchObject({ kind: 'user' });
  });

  it('pushes a new comment to admins as newComment and to everyone else as CommentReplyBadWord; likes and deletions to all', async () => {
    const [ada, bob, cleo] = [await person('Ada'), await person('Bob'), await person('Cleo')];
    const post = await publish(ada, 'Live!');
    const [adaPage, bobPage, adminPage] = [await pageOf(ada.api), await pageOf(bob.api), await pageOf(admin)];

    expect((await bob.api.call('PUT', path(FEED_PATHS.like(post._id)))).status).toBe(200);
    await expect
      .poll(() => adaPage.find((p) => p.event === 'postLiked')?.payload)
      .toMatchObject({ postId: post._id, likes: [bob.user._id], likeCount: 1, userId: bob.user._id });

    const said = await comment(cleo, post._id, 'Lovely post');
    await expect
      .poll(() => adaPage.find((p) => p.event === 'CommentReplyBadWord')?.payload)
      .toMatchObject({ postId: post._id, comment: { _id: said._id, text: 'Lovely post' } });
    await expect
      .poll(() => adminPage.find((p) => p.event === 'newComment')?.payload)
      .toMatchObject({
        comment: { _id: said._id },
      });
    // The admin's page gets the members' copy too, under another id: a page drops an id it has seen, and spec 5 has
    // an admin keep only newComment, so the two must not share one.
    await expect.poll(() => adminPage.filter((p) => p.event === 'CommentReplyBadWord').length).toBe(1);
    const ids = adminPage
      .filter((p) => p.event === 'newComment' || p.event === 'CommentReplyBadWord')
      .map((p) => p.payload.eventId);
    expect(new Set(ids).size).toBe(2);
    expect(bobPage.filter((p) => p.event === 'newComment')).toEqual([]);
    expect(adaPage.filter((p) => p.event === 'newComment')).toEqual([]);

    const answer = await ada.api.call('POST', path(FEED_PATHS.replies(said._id)), { text: 'Thanks!' });
    const replyId = (answer.body as ReplyView)._id;
    await expect
      .poll(() => bobPage.find((p) => p.event === 'newReply')?.payload)
      .toMatchObject({ commentId: said._id, reply: { _id: replyId, text: 'Thanks!' } });

    expect((await cleo.api.call('DELETE', path(FEED_PATHS.comment(said._id)))).status).toBe(204);
    await expect
      .poll(() => bobPage.find((p) => p.event === 'commentDeleted')?.payload)
      .toMatchObject({ postId: post._id, commentId: said._id });
    expect((await postAs(bob.api, post._id)).post).toMatchObject({ comments: [], commentCount: 0 });

    // Ada is told of the like, the comment; Cleo of the reply.
    await expect
      .poll(async () =>
        ((await ada.api.call('GET', path(NOTIFICATION_PATHS.list(ada.user._id)))).body as NotificationView[])
          .map((n) => n.description)
          .sort(),
      )
      .toEqual(['Bob liked your post.', 'Cleo commented on your post.']);
    await expect
      .poll(async () =>
        ((await cleo.api.call('GET', path(NOTIFICATION_PATHS.list(cleo.user._id)))).body as NotificationView[]).map(
          (n) => n.description,
        ),
      )
      .toEqual(['Ada replied to your comment.']);
  });

  it('posts a picture: re-encoded without its metadata, its uploader alone sees it until posted, and it goes with the post', async () => {
    const [ada, bob] = [await person('Ada'), await person('Bob')];
    const photo = await sharp({ create: { width: 3000, height: 1500, channels: 3, background: '#c33' } })
      .jpeg()
      .withExif({ IFD0: { Copyright: 'GPS-SECRET' } })
      .toBuffer();
    const upload = (who: VideoUser, bytes: Buffer, type = 'image/jpeg') =>
      fetch(`${test.base}${FEED_PATHS.images}`, {
        method: 'POST',
        headers: { 'Content-Type': type, Cookie: who.api.cookieHeader(), 'X-Forwarded-For': who.api.ip },
        body: new Uint8Array(bytes),
      });
    const picture = (who: VideoUser | undefined, id: string) =>
      fetch(`${test.base}${FEED_PATHS.image(id)}`, {
        headers: who ? { Cookie: who.api.cookieHeader(), 'X-Forwarded-For': who.api.ip } : {},
      });

    const uploaded = await upload(ada, photo);
    expect(uploaded.status).toBe(201);
    const { imageId, url } = (await uploaded.json()) as { imageId: string; url: string };
    expect(url).toBe(FEED_PATHS.image(imageId));
    const mine = await picture(ada, imageId);
    expect(mine.status).toBe(200);
    expect(mine.headers.get('content-type')).toBe('image/webp');
    const meta = await sharp(Buffer.from(await mine.arrayBuffer())).metadata();
    expect([meta.format, meta.width, meta.height, meta.exif]).toEqual(['webp', 1600, 800, undefined]);
    // Not posted yet: nobody else sees it, nor posts it.
    expect((await picture(bob, imageId)).status).toBe(404);
    expect((await picture(undefined, imageId)).status).toBe(401);
    const stolen = await bob.api.call('POST', path(FEED_PATHS.posts), { text: 'Mine now', imageId });
    expect(stolen.status).toBe(400);
    expect(JSON.stringify(stolen.body)).toMatch(/imageId/);
    expect((await upload(ada, Buffer.from('not a picture at all'))).status).toBe(400);
    expect((await upload(ada, Buffer.from('{"a":1}'), 'application/json')).status).toBe(400);
    expect((await ada.api.call('POST', path(FEED_PATHS.posts), {})).status).toBe(400);

    // A post that is only a picture.
    const post = await ada.api.call('POST', path(FEED_PATHS.posts), { imageId });
    expect(post.status, JSON.stringify(post.body)).toBe(201);
    expect(post.body).toMatchObject({ text: '', image: FEED_PATHS.image(imageId) });
    expect((await picture(bob, imageId)).status).toBe(200);
    expect((await ada.api.call('POST', path(FEED_PATHS.posts), { text: 'Again', imageId })).status).toBe(400);

    expect((await ada.api.call('DELETE', path(FEED_PATHS.post((post.body as PostView)._id)))).status).toBe(204);
    expect((await picture(ada, imageId)).status).toBe(404);
  });

  it("shows a peer's public profile and posts, hides a banned author's while banned, and deletes a deleted account's", async () => {
    const [ada, bob] = [await person('Ada'), await person('Bob')];
    const post = await publish(bob, 'Bob was here');
    await comment(bob, post._id, 'And here');
    expect((await ada.api.call('PUT', path(FEED_PATHS.like(post._id)))).status).toBe(200);

    const peerRes = await ada.api.call('GET', path(FEED_PATHS.peer(bob.user._id)));
    expect(peerRes.status, JSON.stringify(peerRes.body)).toBe(200);
    const peer = peerRes.body as Record<string, unknown>;
    expect(Object.keys(peer).sort()).toEqual(expect.arrayContaining(['_id', 'firstName', 'avatar', 'bio', 'isAdmin']));
    expect(peer).toMatchObject({ _id: bob.user._id, firstName: 'Bob' });
    for (const secret of ['emailAddress', 'lastName', 'phoneNumber', 'ip', 'city', 'username', 'userBirthDate'])
      expect(peer).not.toHaveProperty(secret);
    const bobsPosts = async () =>
      ((await ada.api.call('GET', path(FEED_PATHS.userPosts(bob.user._id)))).body as FeedPage).items.map((p) => p._id);
    expect(await bobsPosts()).toEqual([post._id]);

    const ban = await admin.call('POST', `/admin/users/${bob.user._id}/ban`, {
      reason: 'Spam',
      level: 'moderate',
      penalty: { kind: 'restriction', days: 1 },
    });
    expect(ban.status).toBe(201);
    await expect.poll(bobsPosts, { timeout: 10_000 }).toEqual([]);
    expect((await postAs(ada.api, post._id)).status).toBe(404);
    // Banned, Bob cannot post either.
    expect((await bob.api.call('POST', path(FEED_PATHS.posts), { text: 'Still here' })).status).toBe(403);
    const { caseId } = ban.body as { caseId: string };
    const unban = await admin.call('POST', `/admin/bans/${caseId}/unban`, { reason: 'Mistake' });
    expect(unban.status, JSON.stringify(unban.body)).toBeLessThan(300);
    await expect.poll(bobsPosts, { timeout: 10_000 }).toEqual([post._id]);

    // Ada deletes her account: her like goes; Bob deletes his: his post goes.
    expect((await ada.api.call('POST', '/user/delete-account', { currentPassword: 'violet-harbour-42' })).status).toBe(
      200,
    );
    await expect.poll(async () => (await postAs(bob.api, post._id)).post.likeCount, { timeout: 10_000 }).toBe(0);
    expect((await bob.api.call('POST', '/user/delete-account', { currentPassword: 'violet-harbour-42' })).status).toBe(
      200,
    );
    const cleo = await person('Cleo');
    await expect.poll(async () => (await postAs(cleo.api, post._id)).status, { timeout: 10_000 }).toBe(404);
  });
});
