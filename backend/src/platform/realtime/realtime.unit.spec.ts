import type { SystemPushEvent } from '@serendip/proto';
import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import type { EventCore } from '../event-core/event-core.js';
import { InProcessBus } from '../messaging/in-process-bus.js';
import type { Presence } from './presence.js';
import { type LiveSocket, type PushGroup, Realtime } from './realtime.js';

/** Realtime on the in-process bus (the single-process default), with presence left out. */
function realtime() {
  const bus = new InProcessBus(pino({ level: 'silent' }));
  const presence = { join: () => ({ set: () => undefined, leave: () => undefined }) } as unknown as Presence;
  return { realtime: new Realtime({ bus } as unknown as EventCore, presence), bus };
}

function socket(userId: string, heard: string[], group?: PushGroup): LiveSocket {
  return {
    userId,
    sessionId: `s-${userId}`,
    roles: [],
    push: (event: SystemPushEvent, payload: { eventId: string }) => heard.push(`${userId}:${event}:${payload.eventId}`),
    endSession: () => undefined,
    group,
  } as LiveSocket;
}

const settle = () => new Promise((r) => setTimeout(r, 20));

describe('Realtime: a push to many sockets (DESIGN.md "Fan-out: NATS")', () => {
  it('hands the sockets of one group over in one go, the rest one by one, each socket once, a repeat never', async () => {
    const { realtime: live, bus } = realtime();
    const heard: string[] = [];
    const handOvers: { ids: string[]; event: string; payload: unknown }[] = [];
    const group: PushGroup = {
      pushAll: (sockets, event, payload) => handOvers.push({ ids: sockets.map((s) => s.userId), event, payload }),
    };
    const unregister = await Promise.all([
      live.register(socket('ada', heard, group)),
      live.register(socket('bob', heard, group)),
      live.register(socket('cleo', heard)),
    ]);
    // A video socket (no push) takes no system event.
    await live.register({ userId: 'dan', sessionId: 's-dan', roles: [], endSession: () => undefined });

    await live.toEveryone('onlineCount', { count: 3 }, 'e-1');
    await live.toEveryone('onlineCount', { count: 3 }, 'e-1'); // delivered again: dropped
    await settle();
    expect(handOvers).toEqual([{ ids: ['ada', 'bob'], event: 'onlineCount', payload: { count: 3, eventId: 'e-1' } }]);
    expect(heard).toEqual(['cleo:onlineCount:e-1']);

    // One user's push still reaches that user only, through the group when theirs is one.
    await live.toUser('bob', 'onlineCount', { count: 2 }, 'e-2');
    await settle();
    expect(handOvers.at(-1)).toMatchObject({ ids: ['bob'], payload: { eventId: 'e-2' } });

    // Bob's socket goes: the next push to everyone leaves him out.
    await unregister[1]!();
    await live.toEveryone('onlineCount', { count: 2 }, 'e-3');
    await settle();
    expect(handOvers.at(-1)).toMatchObject({ ids: ['ada'], payload: { eventId: 'e-3' } });
    expect(heard.at(-1)).toBe('cleo:onlineCount:e-3');
    await live.onApplicationShutdown();
    await bus.close();
  });

  it('keeps delivering to the others when one hand-over throws', async () => {
    const { realtime: live, bus } = realtime();
    const heard: string[] = [];
    const broken: PushGroup = {
      pushAll: () => {
        throw new Error('server gone');
      },
    };
    const working: PushGroup = {
      pushAll: (sockets, event, payload) => sockets.forEach((s) => s.push?.(event, payload)),
    };
    // Ada's group comes first, and fails; Cleo's group, and Eve on her own, still hear it.
    await live.register(socket('ada', heard, broken));
    await live.register(socket('cleo', heard, working));
    await live.register(socket('eve', heard));
    await live.toEveryone('onlineCount', { count: 2 }, 'e-1');
    await settle();
    expect(heard.sort()).toEqual(['cleo:onlineCount:e-1', 'eve:onlineCount:e-1']);
    await live.onApplicationShutdown();
    await bus.close();
  });
});
