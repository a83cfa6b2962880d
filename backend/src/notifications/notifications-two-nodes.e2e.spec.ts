import { randomBytes } from 'node:crypto';
import { type NewNotificationPush, NOTIFICATION_PATHS } from '@serendip/proto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signInWithCode } from '../test-support/admins.js';
import { ApiClient } from '../test-support/api-client.js';
import { type BackendProcess, buildBackend, startBackendProcess, waitForOk } from '../test-support/backend-process.js';
import { freePort } from '../test-support/global-postgres.js';
import { TestNatsServer } from '../test-support/nats-server.js';
import { type SmtpSink, startSmtpSink } from '../test-support/smtp-sink.js';
import { sharedTempDir } from '../test-support/temp-dir.js';
import { createTestDatabase, type TestDatabase } from '../test-support/test-database.js';
import { openSystemSocket, sinkMailbox, type SystemClient, videoUser } from '../test-support/video-users.js';

const ADMIN = { emailAddress: 'notifier@example.com', password: 'violet-harbour-lantern-42' };

/**
 * Notifications across nodes (DESIGN.md "Fan-out: NATS"): two backend processes on one NATS and one Postgres. What is
 * sent on one node reaches the recipient's pages on the other within a second, and a person with pages on both nodes
 * gets it once on each.
 */
describe('notifications on two backend nodes', () => {
  let database: TestDatabase;
  let nats: TestNatsServer;
  let sink: SmtpSink;
  const nodes: { process: BackendProcess; base: string }[] = [];
  const sockets: SystemClient[] = [];
  let admin: ApiClient;

  beforeAll(async () => {
    buildBackend();
    database = await createTestDatabase();
    nats = new TestNatsServer(await freePort(), await sharedTempDir('serendip-nats-'));
    await nats.start();
    sink = await startSmtpSink();
    const shared = {
      SMTP_URL: sink.url,
      DATABASE_URL: database.url,
      NATS_URL: nats.url,
      PERSONAL_DATA_KEY: randomBytes(32).toString('base64'),
      LOG_LEVEL: 'warn',
    };
    for (let i = 0; i < 2; i++) {
      const port = await freePort();
      const base = `http://127.0.0.1:${port}`;
      const process = startBackendProcess({
        ...shared,
        // The first node makes the admin at start, as a deployment's ADMIN_EMAIL does.
        ...(i === 0 ? { ADMIN_EMAIL: ADMIN.emailAddress, ADMIN_PASSWORD: ADMIN.password } : {}),
        PORT: String(port),
        PUBLIC_URL: base,
        DATA_DIR: await sharedTempDir('serendip-node-'),
      });
      nodes.push({ process, base });
      await waitForOk(`${base}/api/health`, 90_000, process.exited).catch((error: Error) => {
        throw new Error(`${error.message}\n${process.stderr()}${process.stdout()}`);
      });
    }
    admin = new ApiClient(nodes[0]!.base);
    await signInWithCode(admin, ADMIN.emailAddress, ADMIN.password, sinkMailbox(sink));
  }, 180_000);

  afterAll(async () => {
    for (const socket of sockets) socket.close();
    for (const node of nodes) node.process.child.kill('SIGTERM');
    await Promise.all(nodes.map((n) => n.process.exited));
    await nats?.stop();
    await sink?.stop();
    await database?.drop();
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
    const [one, two] = nodes as [(typeof nodes)[0], (typeof nodes)[0]];
    const bob = await videoUser(two.base, { firstName: 'Bob' }, sinkMailbox(sink));
    const bobPage = await pageOn(two.base, bob.api);
    const ada = await videoUser(one.base, { firstName: 'Ada' }, sinkMailbox(sink));
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
    const [one, two] = nodes as [(typeof nodes)[0], (typeof nodes)[0]];
    const cleo = await videoUser(one.base, { firstName: 'Cleo' }, sinkMailbox(sink));
    const [onOne, onTwo] = [await pageOn(one.base, cleo.api), await pageOn(two.base, cleo.api)];
    const dan = await videoUser(two.base, { firstName: 'Dan' }, sinkMailbox(sink));
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
