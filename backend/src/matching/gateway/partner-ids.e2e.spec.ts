import type { MatchFound } from '@serendip/proto';
import { describe, expect, it } from 'vitest';
import { ANYONE, nextEvent, type VideoClient, videoUser, videoTestApp } from '../../test-support/video-users.js';

/** Every event a socket received, in order, as the client saw it. */
function recorder(socket: VideoClient) {
  const heard: { event: string; payload: unknown }[] = [];
  socket.onAny((event: string, payload: unknown) => heard.push({ event, payload }));
  return heard;
}

/** The events whose payload carries `text` anywhere (a user id, a socket id). */
const carrying = (heard: { event: string; payload: unknown }[], text: string) =>
  heard.filter((h) => JSON.stringify(h.payload).includes(text)).map((h) => h.event);

describe("Per-match partner id: strangers never receive each other's user id", () => {
  const setup = videoTestApp();
  const { open } = setup;

  async function connected(firstName: string, gender: 'male' | 'female') {
    const person = await videoUser(setup.app.base, { firstName, gender });
    const socket = await person.connect();
    open.push(socket);
    return { ...person, socket, heard: recorder(socket) };
  }

  type Person = Awaited<ReturnType<typeof connected>>;

  async function pair(ada: Person, bob: Person): Promise<[MatchFound, MatchFound]> {
    const adaFound = nextEvent(ada.socket, 'matchFound');
    const bobFound = nextEvent(bob.socket, 'matchFound');
    await ada.socket.emitWithAck('startMatching', { filters: ANYONE, deviceType: 'desktop' });
    await bob.socket.emitWithAck('startMatching', { filters: ANYONE, deviceType: 'desktop' });
    return [await adaFound, await bobFound];
  }

  /** Signalling, chat, toggles and quality both ways, each named by the id the sender was given for the partner. */
  async function talk(ada: Person, bob: Person, adaMatch: MatchFound, bobMatch: MatchFound) {
    const offer = nextEvent(ada.socket, 'offer');
    expect(
      await bob.socket.emitWithAck('offer', { target: bobMatch.partnerId, description: { type: 'offer', sdp: 'v=0' } }),
    ).toEqual({ ok: true });
    expect(await offer).toEqual({ from: adaMatch.partnerId, description: { type: 'offer', sdp: 'v=0' } });

    const answer = nextEvent(bob.socket, 'answer');
    const candidate = nextEvent(bob.socket, 'ice-candidate');
    const chat = nextEvent(bob.socket, 'chatMessage');
    const mic = nextEvent(bob.socket, 'mic-toggle');
    const camera = nextEvent(bob.socket, 'camera-toggle');
    const speaking = nextEvent(bob.socket, 'speaking-status');
    const quality = nextEvent(bob.socket, 'partner-network-quality');
    const target = adaMatch.partnerId;
    await ada.socket.emitWithAck('answer', { target, description: { type: 'answer', sdp: 'v=0' } });
    await ada.socket.emitWithAck('ice-candidate', {
      target,
      candidate: { candidate: 'candidate:1 1 udp 1 x 9 typ host' },
    });
    await ada.socket.emitWithAck('sendChatMessage', { target, message: 'Hello!' });
    await ada.socket.emitWithAck('mic-toggle', { target, enabled: false });
    await ada.socket.emitWithAck('camera-toggle', { target, enabled: true });
    await ada.socket.emitWithAck('speaking-status', { target, speaking: true });
    await ada.socket.emitWithAck('network-quality', { target, quality: 'good' });
    const from = bobMatch.partnerId;
    expect(await answer).toMatchObject({ from });
    expect(await candidate).toMatchObject({ from });
    expect(await chat).toMatchObject({ from, message: 'Hello!' });
    expect(await mic).toEqual({ from, enabled: false });
    expect(await camera).toEqual({ from, enabled: true });
    expect(await speaking).toEqual({ from, speaking: true });
    expect(await quality).toEqual({ from, quality: 'good' });

    const adaUp = nextEvent(ada.socket, 'rtc-fully-connected');
    expect(await ada.socket.emitWithAck('rtc-connected', { target: adaMatch.partnerId })).toEqual({ ok: true });
    expect(await bob.socket.emitWithAck('rtc-connected', { target: bobMatch.partnerId })).toEqual({ ok: true });
    await adaUp;
  }

  it('names the partner by an id of this match only, in matchFound and every relay, and still relays', async () => {
    const ada = await connected('Ada', 'female');
    const bob = await connected('Bob', 'male');
    const [adaMatch, bobMatch] = await pair(ada, bob);
    await talk(ada, bob, adaMatch, bobMatch);

    // Nothing either received names the other's account, nor the other's socket (which outlives a call).
    expect(carrying(ada.heard, bob.user._id), "what Ada received that carries Bob's user id").toEqual([]);
    expect(carrying(bob.heard, ada.user._id), "what Bob received that carries Ada's user id").toEqual([]);
    expect(carrying(ada.heard, bob.socket.id!), "what Ada received that carries Bob's socket id").toEqual([]);
    expect(carrying(bob.heard, ada.socket.id!), "what Bob received that carries Ada's socket id").toEqual([]);
    // The one name the partner has is the same throughout the match.
    expect(adaMatch.partnerUser._id).toBe(adaMatch.partnerId);
    expect(bobMatch.partnerUser._id).toBe(bobMatch.partnerId);

    // A user id learned elsewhere names nobody in this call.
    expect(await ada.socket.emitWithAck('sendChatMessage', { target: bob.user._id, message: 'psst' })).toEqual({
      error: { reason: 'You are not in a call with that person.' },
    });
  });

  it('gives the same two people new ids in their next match, and the old ones name nobody', async () => {
    const ada = await connected('Ada', 'female');
    const bob = await connected('Bob', 'male');
    const [first, bobFirst] = await pair(ada, bob);
    const told = nextEvent(bob.socket, 'partnerDisconnected');
    await ada.socket.emitWithAck('leaveVideoRoom', { next: false });
    await told;

    const [again, bobAgain] = await pair(ada, bob);
    expect(again.matchId).not.toBe(first.matchId);
    expect(again.partnerId).not.toBe(first.partnerId);
    expect(bobAgain.partnerId).not.toBe(bobFirst.partnerId);
    expect(again.partnerUser.socketId).not.toBe(first.partnerUser.socketId);
    await talk(ada, bob, again, bobAgain);
    expect(await ada.socket.emitWithAck('sendChatMessage', { target: first.partnerId, message: 'psst' })).toEqual({
      error: { reason: 'You are not in a call with that person.' },
    });
    expect(carrying(ada.heard, bob.user._id)).toEqual([]);
    expect(carrying(bob.heard, ada.user._id)).toEqual([]);
  });
});
