import {
  type CommentView,
  FEED_PATHS,
  type FeedImageUploaded,
  type PostDetail,
  type PostView,
  type ReplyView,
} from '@serendip/proto';
import sharp from 'sharp';
import { expect } from 'vitest';
import type { ApiClient } from './api-client.js';
import type { TestApp } from './test-app.js';
import { openSystemSocket, type SystemClient, type VideoUser } from './video-users.js';

/** proto's paths name the whole path; the test client adds /api itself. */
export const apiPath = (full: string) => full.replace(/^\/api/, '');

/** A system socket's pushes, in order, as a page would get them. */
export type PageEvents = { event: string; payload: Record<string, unknown> }[];

/**
 * What the feed's API tests do over and over, each step checked as it goes. `app` is read when called (the test app
 * starts in beforeAll); the sockets `pageOf` opens are added to `open`, for the test to close.
 */
export function feedActions(app: () => TestApp, open: SystemClient[]) {
  async function publish(user: VideoUser, text: string) {
    const res = await user.api.call('POST', apiPath(FEED_PATHS.posts), { text });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    return res.body as PostView;
  }
  async function comment(user: VideoUser, postId: string, text: string) {
    const res = await user.api.call('POST', apiPath(FEED_PATHS.comments(postId)), { text });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    return res.body as CommentView;
  }
  async function reply(user: VideoUser, commentId: string, text: string) {
    const res = await user.api.call('POST', apiPath(FEED_PATHS.replies(commentId)), { text });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    return res.body as ReplyView;
  }
  async function postAs(client: ApiClient, postId: string) {
    const res = await client.call('GET', apiPath(FEED_PATHS.post(postId)));
    return { status: res.status, post: res.body as PostDetail };
  }
  /** Every text of a post's page as `client` gets it: comments and their replies. */
  async function textsOn(client: ApiClient, postId: string) {
    const { post } = await postAs(client, postId);
    return (post.comments ?? []).flatMap((c) => [c.text, ...c.replies.map((r) => r.text)]);
  }
  /** A signed-in page's system socket, with what it is pushed. */
  async function pageOf(client: ApiClient): Promise<PageEvents> {
    const socket = await openSystemSocket(app().base, client);
    open.push(socket);
    const got: PageEvents = [];
    socket.onAny((event: string, payload: Record<string, unknown>) => void got.push({ event, payload }));
    // The server registers a socket a moment after `connect`.
    await new Promise((r) => setTimeout(r, 300));
    return got;
  }
  return { publish, comment, reply, postAs, textsOn, pageOf };
}

/** Posts' pictures as a browser sends and fetches them: the bytes themselves, with the person's cookie. */
export function pictureActions(app: () => TestApp) {
  const upload = (who: VideoUser, bytes: Buffer, type = 'image/jpeg') =>
    fetch(`${app().base}${FEED_PATHS.images}`, {
      method: 'POST',
      headers: { 'Content-Type': type, Cookie: who.api.cookieHeader(), 'X-Forwarded-For': who.api.ip },
      body: new Uint8Array(bytes),
    });
  const uploaded = async (who: VideoUser, bytes: Buffer, type = 'image/jpeg') => {
    const res = await upload(who, bytes, type);
    expect(res.status).toBe(201);
    return ((await res.json()) as FeedImageUploaded).imageId;
  };
  const picture = (who: VideoUser, id: string) =>
    fetch(`${app().base}${FEED_PATHS.image(id)}`, {
      headers: { Cookie: who.api.cookieHeader(), 'X-Forwarded-For': who.api.ip },
    });
  /** A plain JPEG of one colour. */
  const photo = (side = 64, background = '#3a6') =>
    sharp({ create: { width: side, height: side, channels: 3, background } })
      .jpeg()
      .toBuffer();
  return { upload, uploaded, picture, photo };
}

/** An admin restricts `who` for a day (a moderate violation), as the feed's hiding of banned authors needs. */
export async function banForADay(admin: ApiClient, who: VideoUser): Promise<void> {
  const res = await admin.call('POST', `/admin/users/${who.user._id}/ban`, {
    reason: 'Spam',
    level: 'moderate',
    penalty: { kind: 'restriction', days: 1 },
  });
  expect(res.status).toBe(201);
}
