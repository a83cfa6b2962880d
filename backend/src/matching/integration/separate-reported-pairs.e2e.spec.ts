import { randomBytes, randomUUID } from 'node:crypto';
import type { ReportFiledEvent } from '@serendip/proto';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { eventSubject } from '../../platform/messaging/subjects.js';
import { startTestApp, type TestApp } from '../../test-support/test-app.js';
import { createTestDatabase, type TestDatabase } from '../../test-support/test-database.js';
import {
  ANYONE,
  eventsWithin,
  nextEvent,
  openVideoSocket,
  type VideoClient,
  type VideoUser,
  videoUser,
} from '../../test-support/video-users.js';
import { matchStream } from '../domain/match.events.js';

const start = { filters: ANYONE, deviceType: 'desktop' } as const;

/**
 * DESIGN.md "Matching": the matchmaker excludes anyone either side reported, for good. Over the real app: a filed
 * report (moderation's ReportFiled on the bus) keeps the two apart, whoever searches first, and so does a fresh app
 * on the same database (the exclusion comes from the log, not from memory).
 */
describe('a reported pair is never paired again', () => {
  let database: TestDatabase | undefined;
  let app: TestApp | undefined;
  const open: VideoClient[] = [];
  // One key across both runs: the sessions (and the sealed personal data) of the first stay valid in the second.
  const env = { PERSONAL_DATA_KEY: randomBytes(32).toString('base64') };

  afterEach(() => {
    for (const socket of open.splice(0)) socket.close();
  });
  afterAll(async () => {
    await app?.close();
    await database?.drop();
  });

  /** The user's video socket on the app running now (their session cookie from before a restart included). */
  async function connect(user: VideoUser): Promise<VideoClient> {
    const socket = await openVideoSocket(app!.base, user.api);
    open.push(socket);
    return socket;
  }

  async function fileReport(matchId: string, reporterId: string, reportedId: string) {
    const event: ReportFiledEvent = {
      id: randomUUID(),
      context: 'moderation',
      type: 'ReportFiled',
      occurredAt: new Date().toISOString(),
      data: { reportId: randomUUID(), matchId, reporterId, reportedId },
    };
    // The in-process bus resolves once its durable subscribers have handled it (as NATS's ack would say).
    await app!.core.bus.publish({ subject: eventSubject('moderation', 'ReportFiled'), id: event.id, data: event });
  }

  /** ada and bob search alone, one after the other (`first` first): neither finds the other; each then meets a third. */
  async function neverPairedButEachMeetsAnother(ada: VideoUser, bob: VideoUser, first: 'ada' | 'bob') {
    const [one, two] = first === 'ada' ? [ada, bob] : [bob, ada];
    const [oneSocket, twoSocket] = [await connect(one), await connect(two)];
    const oneFound = eventsWithin(oneSocket, 'matchFound', 1_000);
    const twoFound = eventsWithin(twoSocket, 'matchFound', 1_000);
    await oneSocket.emitWithAck('startMatching', start);
    await twoSocket.emitWithAck('startMatching', start);
    expect(await oneFound).toEqual([]);
    expect(await twoFound).toEqual([]);

    // A third meets the one who has waited longest, then a fourth the other: both still match.
    for (const [waiting, name] of [
      [oneSocket, 'Cleo'],
      [twoSocket, 'Dan'],
    ] as const) {
      const third = await videoUser(app!.base, { firstName: name });
      const thirdSocket = await connect(third);
      const found = nextEvent(waiting, 'matchFound');
      const thirdFound = nextEvent(thirdSocket, 'matchFound');
      await thirdSocket.emitWithAck('startMatching', start);
      expect((await found).partnerUser.firstName).toBe(name);
      expect((await thirdFound).partnerUser.firstName).toBe(
        waiting === oneSocket ? one.user.firstName : two.user.firstName,
      );
    }
    for (const socket of open.splice(0)) socket.close();
  }

  it('keeps the two apart both ways, after the report and after a restart on the same database', async () => {
    database = await createTestDatabase();
    app = await startTestApp(env, { database });
    const ada = await videoUser(app.base, { firstName: 'Ada', gender: 'female' });
    const bob = await videoUser(app.base, { firstName: 'Bob', gender: 'male' });
    const [adaSocket, bobSocket] = [await connect(ada), await connect(bob)];
    const found = nextEvent(adaSocket, 'matchFound');
    await adaSocket.emitWithAck('startMatching', start);
    await bobSocket.emitWithAck('startMatching', start);
    const { matchId } = await found;

    // Ada reports Bob from inside the call, then leaves it (a leave, not a skip: no cooldown keeps them apart).
    await fileReport(matchId, ada.user._id, bob.user._id);
    // Bob reports her back, and the first report comes again: still one separation.
    await fileReport(matchId, bob.user._id, ada.user._id);
    const told = nextEvent(bobSocket, 'partnerDisconnected');
    await adaSocket.emitWithAck('leaveVideoRoom', { next: false });
    await told;
    await bobSocket.emitWithAck('leaveVideoRoom', { next: false });
    for (const socket of open.splice(0)) socket.close();
    const separations = (await app.core.store.readStream(matchStream(matchId))).filter(
      (e) => e.type === 'PairSeparated',
    );
    expect(separations.map((e) => e.data)).toEqual([
      { matchId, userIds: [ada.user._id, bob.user._id], reportId: expect.any(String) },
    ]);

    await neverPairedButEachMeetsAnother(ada, bob, 'ada');
    await neverPairedButEachMeetsAnother(ada, bob, 'bob');

    // A fresh app on the same database (a restart, or another node taking over the matchmaker): still apart.
    await app.close();
    app = await startTestApp(env, { database });
    await neverPairedButEachMeetsAnother(ada, bob, 'bob');
    await neverPairedButEachMeetsAnother(ada, bob, 'ada');
  }, 60_000);

  it('separates nobody on a report that does not name the two of its call, and goes on handling reports', async () => {
    app ??= await startTestApp(env);
    const eve = await videoUser(app.base, { firstName: 'Eve', gender: 'female' });
    const fay = await videoUser(app.base, { firstName: 'Fay', gender: 'female' });
    const [eveSocket, faySocket] = [await connect(eve), await connect(fay)];
    const found = nextEvent(eveSocket, 'matchFound');
    await eveSocket.emitWithAck('startMatching', start);
    await faySocket.emitWithAck('startMatching', start);
    const { matchId } = await found;
    // Someone outside the call, and a call that does not exist: dropped (a warning), never retried for ever.
    await fileReport(matchId, eve.user._id, randomUUID());
    await fileReport(randomUUID(), eve.user._id, fay.user._id);
    expect((await app.core.store.readStream(matchStream(matchId))).map((e) => e.type)).toEqual(['MatchPaired']);

    await fileReport(matchId, fay.user._id, eve.user._id);
    await expect
      .poll(() =>
        app!.db
          .selectFrom('matching_separated_pairs')
          .select(['user_a', 'user_b', 'match_id'])
          .where('match_id', '=', matchId)
          .execute(),
      )
      .toEqual([
        {
          user_a: [eve.user._id, fay.user._id].sort()[0],
          user_b: [eve.user._id, fay.user._id].sort()[1],
          match_id: matchId,
        },
      ]);
  });
});
