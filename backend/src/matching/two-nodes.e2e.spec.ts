import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type BackendProcess, buildBackend, startBackendProcess, waitForOk } from '../test-support/backend-process.js';
import { freePort } from '../test-support/global-postgres.js';
import { TestNatsServer } from '../test-support/nats-server.js';
import { sharedTempDir } from '../test-support/temp-dir.js';
import { createTestDatabase, type TestDatabase } from '../test-support/test-database.js';
import { ANYONE, nextEvent, openVideoSocket, type VideoClient, videoUser } from '../test-support/video-users.js';

/**
 * Two backend processes on one NATS and one Postgres (DESIGN.md "Processes and roles"): one leads the matchmaker,
 * the other's gateway reaches it over the bus, and two users on different nodes are paired and talk (issue 7).
 */
describe('matching across two backend nodes', () => {
  let database: TestDatabase;
  let nats: TestNatsServer;
  const nodes: { process: BackendProcess; base: string }[] = [];
  const sockets: VideoClient[] = [];

  beforeAll(async () => {
    buildBackend();
    database = await createTestDatabase();
    nats = new TestNatsServer(await freePort(), await sharedTempDir('serendip-nats-'));
    await nats.start();
    const shared = {
      DATABASE_URL: database.url,
      NATS_URL: nats.url,
      // One key for both: a session signed in on one node is valid on the other.
      PERSONAL_DATA_KEY: randomBytes(32).toString('base64'),
      LOG_LEVEL: 'warn',
    };
    for (let i = 0; i < 2; i++) {
      const port = await freePort();
      const base = `http://127.0.0.1:${port}`;
      const process = startBackendProcess({
        ...shared,
        PORT: String(port),
        PUBLIC_URL: base,
        DATA_DIR: await sharedTempDir('serendip-node-'),
      });
      nodes.push({ process, base });
      await waitForOk(`${base}/api/health`, 90_000, process.exited).catch((error: Error) => {
        throw new Error(`${error.message}\n${process.stderr()}${process.stdout()}`);
      });
    }
  }, 180_000);

  afterAll(async () => {
    for (const socket of sockets) socket.close();
    for (const node of nodes) node.process.child.kill('SIGTERM');
    await Promise.all(nodes.map((n) => n.process.exited));
    await nats?.stop();
    await database?.drop();
  }, 30_000);

  it('pairs a user on one node with a user on the other, and relays their signaling and chat', async () => {
    const [one, two] = nodes as [(typeof nodes)[0], (typeof nodes)[0]];
    const ada = await videoUser(one.base, { firstName: 'Ada', gender: 'female' });
    const bob = await videoUser(two.base, { firstName: 'Bob', gender: 'male' });
    const adaSocket = await openVideoSocket(one.base, ada.api);
    const bobSocket = await openVideoSocket(two.base, bob.api);
    sockets.push(adaSocket, bobSocket);

    const adaFound = nextEvent(adaSocket, 'matchFound', 10_000);
    const bobFound = nextEvent(bobSocket, 'matchFound', 10_000);
    await adaSocket.emitWithAck('startMatching', { filters: ANYONE, deviceType: 'desktop' });
    await bobSocket.emitWithAck('startMatching', { filters: ANYONE, deviceType: 'desktop' });
    const [adaMatch, bobMatch] = await Promise.all([adaFound, bobFound]);
    expect(adaMatch).toMatchObject({ partnerId: bob.user._id, partnerUser: { firstName: 'Bob' } });
    expect(bobMatch).toMatchObject({ partnerId: ada.user._id, matchId: adaMatch.matchId });

    const offer = nextEvent(bobSocket, 'offer');
    await adaSocket.emitWithAck('offer', { target: bob.user._id, description: { type: 'offer', sdp: 'v=0 ada' } });
    expect(await offer).toEqual({ from: ada.user._id, description: { type: 'offer', sdp: 'v=0 ada' } });

    const chat = nextEvent(adaSocket, 'chatMessage');
    await bobSocket.emitWithAck('sendChatMessage', { target: ada.user._id, message: 'Hi from the other node' });
    expect(await chat).toMatchObject({ from: bob.user._id, message: 'Hi from the other node' });

    const told = nextEvent(bobSocket, 'partnerDisconnected');
    await adaSocket.emitWithAck('leaveVideoRoom', { next: false });
    expect(await told).toEqual({ matchId: adaMatch.matchId, reason: 'leave' });
  }, 60_000);
});
