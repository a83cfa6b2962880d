import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MatchFound, MediaJoinAnswer } from '@serendip/proto';
import { ApiClient } from './test-support/api-client.js';
import { eventually } from './test-support/eventually.js';
import { mediasoupWorker } from './test-support/mediasoup-worker.js';
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
const worker = mediasoupWorker();

describe('faults on two backend nodes', () => {
  let cluster: TwoNodes;
  const sockets: VideoClient[] = [];

  beforeAll(async () => {
    // Each node runs its SFU, as `npm start` does: relayed calls live in one of them.
    cluster = await startTwoNodes({}, worker ? { MEDIASOUP_WORKER_BIN: worker } : {});
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

  it('moves the matchmaker to the other node when its node is killed: searches and calls carry on there', async () => {
    const [leader, survivor] = cluster.nodes;
    // In a call across the nodes: Gus on the surviving node, Hana on the leader's.
    const gus = await person(survivor.base, 'Gus', 'male');
    const hana = await person(leader.base, 'Hana', 'female');
    const gusSocket = await socketOn(survivor.base, gus.api);
    const [gusMatch, hanaMatch] = await paired(gusSocket, await socketOn(leader.base, hana.api));
    // Another such call: Ivy on the surviving node, Jack on the leader's; Jack will press Stop as his page comes back.
    const ivy = await person(survivor.base, 'Ivy', 'female');
    const jack = await person(leader.base, 'Jack', 'male');
    const ivySocket = await socketOn(survivor.base, ivy.api);
    const [, jackMatch] = await paired(ivySocket, await socketOn(leader.base, jack.api));
    // A relayed call (Kim hides her IP address): Kim on the surviving node, Leo on the leader's. Its SFU room is on
    // either node; the one on the leader's goes with it.
    let relayed: {
      kim: VideoClient;
      kimMatch: MatchFound;
      /** What Kim's page is told to rejoin (the room made again), from the kill on. */
      kimRejoins: { matchId: string }[];
      leo: Awaited<ReturnType<typeof person>>;
      leoMatch: MatchFound;
    };
    if (worker) {
      const kim = await person(survivor.base, 'Kim', 'female');
      expect((await kim.api.call('POST', '/user/privacy', { hideIp: true })).status).toBe(200);
      const leo = await person(leader.base, 'Leo', 'male');
      const kimSocket = await socketOn(survivor.base, kim.api);
      const [kimMatch, leoMatch] = await paired(kimSocket, await socketOn(leader.base, leo.api));
      expect(kimMatch.media).toBe('relay');
      const kimRejoins: { matchId: string }[] = [];
      kimSocket.on('media:reconnect', (event) => kimRejoins.push(event));
      relayed = { kim: kimSocket, kimMatch, kimRejoins, leo, leoMatch };
    }

    // Searching on the surviving node: Eve.
    const eve = await person(survivor.base, 'Eve', 'female');
    const finn = await person(leader.base, 'Finn', 'male');
    const eveSocket = await socketOn(survivor.base, eve.api);
    const eveMatches: unknown[] = [];
    eveSocket.on('matchFound', (m) => eveMatches.push(m));
    expect((await eveSocket.emitWithAck('startMatching', { filters: ANYONE, deviceType: 'desktop' })).status).toBe(
      'searching',
    );
    await socketOn(leader.base, finn.api);
    // The first node started first, so it holds the matchmaker's lock; it dies without a word.
    leader.process.child.kill('SIGKILL');
    await leader.process.exited;
    const killedAt = Date.now();

    // Each page on the dead node reconnects to the node still up (a load balancer's choice), with its session.
    const onSurvivor = (api: ApiClient) => {
      const copy = new ApiClient(survivor.base);
      for (const [name, value] of api.cookies) copy.cookies.set(name, value);
      return copy;
    };
    // Jack's page comes back to his call and he presses Stop at once, while the new matchmaker may not know the call
    // yet: he is never put back in it (Ivy's chat must not reach someone who left), and Ivy hears the call is over.
    const ivyHeard = nextEvent(ivySocket, 'partnerDisconnected', 20_000);
    const jackResumed: unknown[] = [];
    const jackAgain = await openVideoSocket(survivor.base, onSurvivor(jack.api), { matchId: jackMatch.matchId }, (s) =>
      s.on('matchResumed', (m) => jackResumed.push(m)),
    );
    sockets.push(jackAgain);
    await jackAgain.emitWithAck('leaveVideoRoom', { next: false });

    // Hana's page comes back to her call, which the new matchmaker took over from Gus's node.
    const gusHeard = nextEvent(gusSocket, 'partnerReconnected', 20_000);
    let resumed: Promise<{ matchId: string; partnerId: string }> | undefined;
    const hanaAgain = await openVideoSocket(
      survivor.base,
      onSurvivor(hana.api),
      { matchId: hanaMatch.matchId },
      (s) => {
        resumed = nextEvent(s, 'matchResumed', 20_000);
      },
    );
    sockets.push(hanaAgain);
    const back = await resumed!;
    expect(back).toMatchObject({ matchId: hanaMatch.matchId, partnerUser: { firstName: 'Gus' } });
    await gusHeard;
    const chat = nextEvent(gusSocket, 'chatMessage');
    await hanaAgain.emitWithAck('sendChatMessage', { target: back.partnerId, message: 'Still here' });
    expect(await chat).toMatchObject({ from: gusMatch.partnerId, message: 'Still here' });
    const reply = nextEvent(hanaAgain, 'chatMessage');
    await gusSocket.emitWithAck('sendChatMessage', { target: gusMatch.partnerId, message: 'Me too' });
    expect(await reply).toMatchObject({ from: back.partnerId, message: 'Me too' });
    console.log(`leader killed: Hana back in her call ${Date.now() - killedAt} ms after the kill`);

    // Finn's page searches there; Eve, who was searching on the surviving node all along, is not dropped.
    const finnAgain = await socketOn(survivor.base, onSurvivor(finn.api));
    const finnFound = nextEvent(finnAgain, 'matchFound', 20_000);
    expect((await finnAgain.emitWithAck('startMatching', { filters: ANYONE, deviceType: 'desktop' })).status).toBe(
      'searching',
    );
    const match = await finnFound;
    console.log(`leader killed: Eve, searching all along, paired ${Date.now() - killedAt} ms after the kill`);
    expect(match).toMatchObject({ partnerUser: { firstName: 'Eve' } });
    await new Promise((r) => setTimeout(r, 1_000));
    expect(eveMatches).toEqual([expect.objectContaining({ matchId: match.matchId, partnerUser: expect.anything() })]);

    // The relayed call carries on too: both sides join its room (made again if it went with the dead node), and the
    // chat flows.
    if (worker) {
      const { kim, kimMatch, kimRejoins, leo, leoMatch } = relayed!;
      let leoBack: Promise<MatchFound> | undefined;
      const leoAgain = await openVideoSocket(survivor.base, onSurvivor(leo.api), { matchId: leoMatch.matchId }, (s) => {
        leoBack = nextEvent(s, 'matchResumed', 20_000);
      });
      sockets.push(leoAgain);
      expect(await leoBack!).toMatchObject({ matchId: leoMatch.matchId, media: 'relay' });
      await eventually(
        () => kimRejoins.length > 0,
        20_000,
        () => 'Kim told to rejoin her relayed call',
      );
      expect(kimRejoins).toEqual([{ matchId: kimMatch.matchId }]);
      for (const side of [kim, leoAgain]) {
        const joined = (await side.emitWithAck('media:join', {})) as MediaJoinAnswer;
        expect(joined.routerRtpCapabilities, 'the relayed call has a room on a running SFU').toHaveProperty('codecs');
      }
      const chat = nextEvent(kim, 'chatMessage');
      await leoAgain.emitWithAck('sendChatMessage', { target: (await leoBack!).partnerId, message: 'Relayed still' });
      expect(await chat).toMatchObject({ from: kimMatch.partnerId, message: 'Relayed still' });
      console.log(`leader killed: the relayed call rejoined its room ${Date.now() - killedAt} ms after the kill`);
      const over = nextEvent(leoAgain, 'partnerDisconnected');
      await kim.emitWithAck('leaveVideoRoom', { next: false });
      expect(await over).toEqual({ matchId: leoMatch.matchId, reason: 'leave' });
    }

    // Ivy hears it as his leave or, had his Stop reached no matchmaker, once his grace period runs out.
    expect(await ivyHeard).toMatchObject({ matchId: jackMatch.matchId });
    expect(jackResumed, 'Jack, who pressed Stop, put back into his call').toEqual([]);

    // The call ends as any call does: the other side hears it.
    const left = nextEvent(hanaAgain, 'partnerDisconnected');
    await gusSocket.emitWithAck('leaveVideoRoom', { next: false });
    expect(await left).toEqual({ matchId: hanaMatch.matchId, reason: 'leave' });
  }, 120_000);
  it('notices a node that is not the leader die without a word: its calls get the grace period, its searches end', async () => {
    // The last test killed the first node: the second leads. The first starts again, and dies again, not leading.
    const [doomed, leader] = cluster.nodes;
    await doomed.restart();
    const lia = await person(leader.base, 'Lia', 'female');
    const max = await person(doomed.base, 'Max', 'male');
    const liaSocket = await socketOn(leader.base, lia.api);
    const [liaMatch] = await paired(liaSocket, await socketOn(doomed.base, max.api));
    const ned = await person(doomed.base, 'Ned', 'male');
    const nedSocket = await socketOn(doomed.base, ned.api);
    expect((await nedSocket.emitWithAck('startMatching', { filters: ANYONE, deviceType: 'desktop' })).status).toBe(
      'searching',
    );

    const reconnecting = nextEvent(liaSocket, 'partnerReconnecting', 15_000);
    doomed.process.child.kill('SIGKILL');
    await doomed.process.exited;
    const killedAt = Date.now();
    // Max's node never says his socket is lost; the matchmaker notices the node's heartbeats stop.
    expect(await reconnecting).toEqual({ matchId: liaMatch.matchId });
    const noticedMs = Date.now() - killedAt;
    // Ned's search went with his node: Oli, searching now, is not paired with someone who is not there.
    const oli = await person(leader.base, 'Oli', 'female');
    const oliSocket = await socketOn(leader.base, oli.api);
    const oliMatches = eventsWithin(oliSocket, 'matchFound', 2_000);
    expect((await oliSocket.emitWithAck('startMatching', { filters: ANYONE, deviceType: 'desktop' })).status).toBe(
      'searching',
    );
    expect(await oliMatches).toEqual([]);
    await oliSocket.emitWithAck('leaveVideoRoom', { next: false });
    // Max never comes back: once the grace period is over, Lia hears the call has ended.
    expect(await nextEvent(liaSocket, 'partnerDisconnected', 15_000)).toEqual({
      matchId: liaMatch.matchId,
      reason: 'disconnect',
    });
    console.log(
      `a node that did not lead killed: its calls' partners told 'Reconnecting...' ${noticedMs} ms after the kill, ` +
        `and the call over ${Date.now() - killedAt} ms after it`,
    );
  }, 120_000);
});
