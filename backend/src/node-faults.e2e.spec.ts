import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiClient } from './test-support/api-client.js';
import { startTwoNodes, type TwoNodes } from './test-support/two-nodes.js';
import {
  ANYONE,
  eventsWithin,
  nextEvent,
  openVideoSocket,
  sinkMailbox,
  type VideoClient,
  videoUser,
} from './test-support/video-users.js';

/**
 * Faults in the running system (DESIGN.md "Faults"), on two backend processes with a NATS and a Postgres database of
 * their own: NATS killed and started again under a call between the nodes, then the node that leads the matchmaker
 * killed with people on both nodes. Integration events across a NATS restart arrive once each by id: that is
 * `platform/messaging/fan-out-across-nats-restart.int.spec.ts`.
 */
describe('faults on two backend nodes', () => {
  let cluster: TwoNodes;
  const sockets: VideoClient[] = [];

  beforeAll(async () => {
    cluster = await startTwoNodes();
  }, 180_000);

  afterAll(async () => {
    for (const socket of sockets) socket.close();
    await cluster?.stop();
  }, 30_000);

  const person = (base: string, firstName: string, gender: 'female' | 'male') =>
    videoUser(base, { firstName, gender }, sinkMailbox(cluster.sink));

  async function socketOn(base: string, api: ApiClient) {
    const socket = await openVideoSocket(base, api);
    sockets.push(socket);
    return socket;
  }

  /** Both start matching; resolves with what each was told once they are paired. */
  async function paired(a: VideoClient, b: VideoClient, timeoutMs = 10_000) {
    const found = [nextEvent(a, 'matchFound', timeoutMs), nextEvent(b, 'matchFound', timeoutMs)] as const;
    expect((await a.emitWithAck('startMatching', { filters: ANYONE, deviceType: 'desktop' })).status).toBe('searching');
    expect((await b.emitWithAck('startMatching', { filters: ANYONE, deviceType: 'desktop' })).status).toBe('searching');
    return Promise.all(found);
  }

  it('keeps a call between the nodes going and matches again within seconds when NATS is killed and restarted', async () => {
    const [one, two] = cluster.nodes;
    const ada = await person(one.base, 'Ada', 'female');
    const bob = await person(two.base, 'Bob', 'male');
    const [adaSocket, bobSocket] = [await socketOn(one.base, ada.api), await socketOn(two.base, bob.api)];
    const [adaMatch, bobMatch] = await paired(adaSocket, bobSocket);

    await cluster.nats.stop('SIGKILL');
    await new Promise((r) => setTimeout(r, 1_500));
    await cluster.nats.start();
    const backAt = Date.now();

    // The call goes on: the chat between the nodes flows again. A line sent while the nodes were still
    // reconnecting may be lost (the sender's ack says so); the person sends it again.
    const heard = new Set<string>();
    adaSocket.on('chatMessage', (m) => heard.add(m.message));
    for (let n = 0; heard.size === 0; n++) {
      expect(Date.now() - backAt, 'chat between the nodes after NATS came back').toBeLessThan(15_000);
      await bobSocket.emitWithAck('sendChatMessage', { target: bobMatch.partnerId, message: `still there? ${n}` });
      await new Promise((r) => setTimeout(r, 250));
    }
    const chatBackMs = Date.now() - backAt;
    // Once it flows, each line arrives once.
    const line = `line ${randomUUID()}`;
    const lines = eventsWithin(adaSocket, 'chatMessage', 1_000);
    await bobSocket.emitWithAck('sendChatMessage', { target: bobMatch.partnerId, message: line });
    expect((await lines).filter((m) => m.message === line)).toEqual([
      expect.objectContaining({ from: adaMatch.partnerId }),
    ]);

    // Matching goes on: two people on different nodes are paired.
    const cleo = await person(one.base, 'Cleo', 'female');
    const dan = await person(two.base, 'Dan', 'male');
    const startedAt = Date.now();
    const [cleoMatch, danMatch] = await paired(
      await socketOn(one.base, cleo.api),
      await socketOn(two.base, dan.api),
      15_000,
    );
    expect(danMatch.matchId).toBe(cleoMatch.matchId);
    console.log(
      `NATS restart: chat between the nodes again ${chatBackMs} ms after NATS was back; ` +
        `a new pair ${Date.now() - startedAt} ms after pressing Start`,
    );
    await adaSocket.emitWithAck('leaveVideoRoom', { next: false });
  }, 120_000);

  it('puts the people searching back in the queue when the node leading the matchmaker is killed', async () => {
    const [leader, survivor] = cluster.nodes;
    const eve = await person(survivor.base, 'Eve', 'female');
    const finn = await person(leader.base, 'Finn', 'male');
    const eveSocket = await socketOn(survivor.base, eve.api);
    const eveMatches: unknown[] = [];
    eveSocket.on('matchFound', (m) => eveMatches.push(m));
    expect((await eveSocket.emitWithAck('startMatching', { filters: ANYONE, deviceType: 'desktop' })).status).toBe(
      'searching',
    );
    const finnSocket = await socketOn(leader.base, finn.api);
    const finnLost = new Promise<void>((resolve) => finnSocket.once('disconnect', () => resolve()));

    // The first node started first, so it holds the matchmaker's lock; it dies without a word.
    leader.process.child.kill('SIGKILL');
    await leader.process.exited;
    await finnLost;
    const killedAt = Date.now();

    // Finn's page reconnects to the node still up (a load balancer's choice), with the same session, and searches.
    const again = new ApiClient(survivor.base);
    for (const [name, value] of finn.api.cookies) again.cookies.set(name, value);
    const finnAgain = await socketOn(survivor.base, again);
    const finnFound = nextEvent(finnAgain, 'matchFound', 20_000);
    expect((await finnAgain.emitWithAck('startMatching', { filters: ANYONE, deviceType: 'desktop' })).status).toBe(
      'searching',
    );
    // Eve, who was searching on the surviving node all along, is not dropped: the new matchmaker pairs them.
    const match = await finnFound;
    console.log(`leader killed: Eve, searching all along, paired ${Date.now() - killedAt} ms after the kill`);
    expect(match).toMatchObject({ partnerUser: { firstName: 'Eve' } });
    await new Promise((r) => setTimeout(r, 1_000));
    expect(eveMatches).toEqual([expect.objectContaining({ matchId: match.matchId, partnerUser: expect.anything() })]);
  }, 120_000);
});
