import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { ANYONE, nextEvent, videoTestApp, videoUser } from '../../test-support/video-users.js';
import { CallRecords } from './index.js';

const start = { filters: ANYONE, deviceType: 'desktop' } as const;

/** What moderation reads of calls through matching's public/: who was in one, and a user's recent ones. */
describe('call records', () => {
  const setup = videoTestApp();
  const { open } = setup;

  async function connected(firstName: string) {
    const person = await videoUser(setup.app.base, { firstName });
    const socket = await person.connect();
    open.push(socket);
    return { ...person, socket };
  }

  async function call(a: Awaited<ReturnType<typeof connected>>, b: Awaited<ReturnType<typeof connected>>) {
    const found = nextEvent(a.socket, 'matchFound');
    await a.socket.emitWithAck('startMatching', start);
    await b.socket.emitWithAck('startMatching', start);
    const { matchId } = await found;
    // The pairing reaches the read model a moment later.
    await expect.poll(() => setup.app.app.get(CallRecords).partiesOf(matchId)).toBeDefined();
    return matchId;
  }

  it("names a call's two users and times, and a user's recent calls newest first", async () => {
    const records = setup.app.app.get(CallRecords);
    const before = new Date(Date.now() - 1_000);
    const [ada, bob, cleo] = [await connected('Ada'), await connected('Bob'), await connected('Cleo')];
    const first = await call(ada, bob);
    const told = nextEvent(bob.socket, 'partnerDisconnected');
    await ada.socket.emitWithAck('leaveVideoRoom', { next: false });
    await told;
    await bob.socket.emitWithAck('leaveVideoRoom', { next: false });
    await expect.poll(async () => (await records.partiesOf(first))?.endedAt).toBeInstanceOf(Date);
    const second = await call(cleo, ada);

    const parties = await records.partiesOf(first);
    expect(parties).toEqual({
      matchId: first,
      userIds: [ada.user._id, bob.user._id],
      pairedAt: expect.any(Date),
      endedAt: expect.any(Date),
      relayed: false,
    });
    expect(parties!.endedAt!.getTime()).toBeGreaterThanOrEqual(parties!.pairedAt.getTime());
    expect(await records.partiesOf(second)).toMatchObject({ userIds: [cleo.user._id, ada.user._id], endedAt: null });

    const recent = await records.recentCallsOf(ada.user._id, before);
    expect(recent).toEqual([
      { matchId: second, partnerId: cleo.user._id, pairedAt: expect.any(Date), endedAt: null, durationMs: null },
      {
        matchId: first,
        partnerId: bob.user._id,
        pairedAt: parties!.pairedAt,
        endedAt: parties!.endedAt,
        durationMs: parties!.endedAt!.getTime() - parties!.pairedAt.getTime(),
      },
    ]);
    expect((await records.recentCallsOf(bob.user._id, before)).map((c) => c.matchId)).toEqual([first]);
    // Only calls paired or ended since then.
    expect(await records.recentCallsOf(ada.user._id, new Date(Date.now() + 60_000))).toEqual([]);
    expect(await records.recentCallsOf(randomUUID(), before)).toEqual([]);
  });

  it('knows no call by an unknown id or by anything that is not a call id, and never throws on it', async () => {
    const records = setup.app.app.get(CallRecords);
    for (const junk of [randomUUID(), 'nope', '', "'; drop table matches; --", 'x'.repeat(10_000)]) {
      expect(await records.partiesOf(junk)).toBeUndefined();
    }
  });
});
