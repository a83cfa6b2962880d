import { type NewNotificationPush, NOTIFICATION_PATHS } from '@serendip/proto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signInWithCode } from '../test-support/admins.js';
import { ApiClient } from '../test-support/api-client.js';
import { startTwoNodes, type TwoNodes } from '../test-support/two-nodes.js';
import { openSystemSocket, sinkMailbox, type SystemClient, videoUser } from '../test-support/video-users.js';

const ADMIN = { emailAddress: 'notifier@example.com', password: 'violet-harbour-lantern-42' };

/**
 * Notifications across nodes (DESIGN.md "Fan-out: NATS"): two backend processes on one NATS and one Postgres. What is
 * sent on one node reaches the recipient's pages on the other within a second, and a person with pages on both nodes
 * gets it once on each.
 */
describe('notifications on two backend nodes', () => {
  let cluster: TwoNodes;
  let nodes: TwoNodes['nodes'];
  const sockets: SystemClient[] = [];
  let admin: ApiClient;

  beforeAll(async () => {
    // The first node makes the admin at start, as a deployment's ADMIN_EMAIL does.
    cluster = await startTwoNodes({ ADMIN_EMAIL: ADMIN.emailAddress, ADMIN_PASSWORD: ADMIN.password });
    nodes = cluster.nodes;
    admin = new ApiClient(nodes[0].base);
    await signInWithCode(admin, ADMIN.emailAddress, ADMIN.password, sinkMailbox(cluster.sink));
  }, 180_000);

  afterAll(async () => {
    for (const socket of sockets) socket.close();
    await cluster?.stop();
  }, 30_000);

  /** A page on `base` with `api`'s session, and what it has been pushed (with when), once the server delivers to it. */
  async function pageOn(base: string, api: ApiClient) {
    const copy = new ApiClient(base);
    for (const [name, value] of api.cookies) copy.cookies.set(name, value);
    const socket = await openSystemSocket(base, copy);
    sockets.push(socket);
    const got: { push: NewNotificationPush; at: number }[] = [];
    socket.on('newNotification', (push) => void got.push({ push, at: Date.now() }));
    // The server registers a socket a moment after `connect`.
    await new Promise((r) => setTimeout(r, 300));
    return got;
  }

  async function announce(body: Record<string, unknown>) {
    const res = await admin.call('POST', NOTIFICATION_PATHS.announce.replace(/^\/api/, ''), body);
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    return (res.body as { notificationId: string }).notificationId;
  }

  it('delivers a notification sent on node A to its recipient on node B within a second', async () => {
    const [one, two] = nodes;
    const bob = await videoUser(two.base, { firstName: 'Bob' }, sinkMailbox(cluster.sink));
    const bobPage = await pageOn(two.base, bob.api);
    const ada = await videoUser(one.base, { firstName: 'Ada' }, sinkMailbox(cluster.sink));
    const adaPage = await pageOn(one.base, ada.api);

    for (let round = 0; round < 3; round++) {
      const sentAt = Date.now();
      const id = await announce({
        title: `For Bob ${round}`,
        description: 'Sent on node A',
        forceOpen: false,
        userId: bob.user._id,
      });
      const answeredAt = Date.now();
      await expect.poll(() => bobPage.length, { timeout: 5_000 }).toBe(round + 1);
      const arrived = bobPage[round]!;
      const ms = arrived.at - sentAt;
      console.log(
        `notification sent on node A reached node B ${ms} ms after the request (answered after ${answeredAt - sentAt} ms)`,
      );
      expect(arrived.push).toMatchObject({ _id: id, title: `For Bob ${round}`, read: false });
      expect(ms).toBeLessThan(1_000);
    }
    expect(adaPage).toEqual([]);
  });

  it("gives a person's pages on both nodes each notification once: their own, and one to everyone", async () => {
    const [one, two] = nodes;
    const cleo = await videoUser(one.base, { firstName: 'Cleo' }, sinkMailbox(cluster.sink));
    const [onOne, onTwo] = [await pageOn(one.base, cleo.api), await pageOn(two.base, cleo.api)];
    const dan = await videoUser(two.base, { firstName: 'Dan' }, sinkMailbox(cluster.sink));
    const danPage = await pageOn(two.base, dan.api);

    const own = await announce({ title: 'Just Cleo', description: 'd', forceOpen: false, userId: cleo.user._id });
    const all = await announce({ title: 'Everyone', description: 'd', forceOpen: true });
    await expect.poll(() => [onOne.length, onTwo.length, danPage.length], { timeout: 5_000 }).toEqual([2, 2, 1]);
    // A while more: no second copy comes.
    await new Promise((r) => setTimeout(r, 1_000));
    expect(onOne.map((g) => g.push._id)).toEqual([own, all]);
    expect(onTwo.map((g) => g.push._id)).toEqual([own, all]);
    expect(danPage.map((g) => g.push._id)).toEqual([all]);
    // The same stored event behind both copies: a client that saw one drops the other by its id.
    expect(onOne[1]!.push.eventId).toBe(onTwo[1]!.push.eventId);
  });
});
