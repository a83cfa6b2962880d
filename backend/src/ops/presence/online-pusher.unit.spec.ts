import { type OnlineCountPush, ONLINE_USERS_LISTED, type OnlineUsersPush } from '@serendip/proto';
import { describe, expect, it } from 'vitest';
import type { UserDirectory } from '../../identity/public/index.js';
import type { Presence, PresentUser } from '../../platform/realtime/presence.js';
import type { LiveSocket, Realtime } from '../../platform/realtime/realtime.js';
import { OnlinePusher } from './online-pusher.js';

/** A system socket that records what it is pushed. */
function socketOf(userId: string) {
  const got: { event: string; payload: OnlineCountPush | OnlineUsersPush }[] = [];
  const socket: LiveSocket = {
    userId,
    sessionId: `s-${userId}`,
    roles: [],
    push: ((event: string, payload: OnlineCountPush | OnlineUsersPush) => void got.push({ event, payload })) as never,
    endSession: () => undefined,
  };
  return { socket, got };
}

describe('OnlinePusher', () => {
  it('never hands the list to a socket that stopped being an admin while it was being read', async () => {
    const admin = socketOf('admin-1');
    const roles = new Map<LiveSocket, readonly string[]>([[admin.socket, ['staff', 'admin']]]);
    let release!: (users: PresentUser[]) => void;
    const presence = {
      count: () => Promise.resolve(1),
      users: () => new Promise<PresentUser[]>((resolve) => (release = resolve)),
    } as unknown as Presence;
    const realtime = { systemSockets: () => [...roles] } as unknown as Realtime;
    const users = { firstNames: (ids: string[]) => Promise.resolve(new Map(ids.map((id) => [id, 'Ada']))) };
    const pusher = new OnlinePusher(presence, realtime, users as unknown as UserDirectory);

    const looking = pusher.look();
    await new Promise((r) => setTimeout(r, 0));
    // Demoted meanwhile (Realtime.setRoles ran): from then on no admin-only push may reach it.
    roles.set(admin.socket, []);
    release([{ userId: 'u-1', device: 'desktop', status: 'online' }]);
    await looking;

    expect(admin.got.map((g) => g.event)).toEqual(['onlineCount']);
    // Nor does a later greeting as a user bring the list.
    pusher.greet(admin.socket, false);
    expect(admin.got.map((g) => g.event)).toEqual(['onlineCount', 'onlineCount']);
  });

  it('hands the list to admins only, the count to everyone', async () => {
    const admin = socketOf('admin-1');
    const moderator = socketOf('mod-1');
    const user = socketOf('user-1');
    const roles = new Map<LiveSocket, readonly string[]>([
      [admin.socket, ['staff', 'admin']],
      [moderator.socket, ['staff', 'moderator']],
      [user.socket, []],
    ]);
    const presence = {
      count: () => Promise.resolve(3),
      users: () => Promise.resolve([{ userId: 'u-1', device: 'desktop', status: 'online' }]),
    } as unknown as Presence;
    const realtime = { systemSockets: () => [...roles] } as unknown as Realtime;
    const users = { firstNames: (ids: string[]) => Promise.resolve(new Map(ids.map((id) => [id, 'Ada']))) };
    await new OnlinePusher(presence, realtime, users as unknown as UserDirectory).look();

    expect(admin.got.map((g) => g.event)).toEqual(['onlineCount', 'onlineUsers']);
    expect(moderator.got.map((g) => g.event)).toEqual(['onlineCount']);
    expect(user.got.map((g) => g.event)).toEqual(['onlineCount']);
  });

  it('lists the first 200 by first name and counts them all: thousands online are not megabytes to each admin', async () => {
    const admin = socketOf('admin-1');
    const online = Array.from({ length: 1_234 }, (_, i) => ({
      userId: `u-${String(i).padStart(4, '0')}`,
      device: 'desktop',
      status: 'online',
    }));
    const presence = { count: () => Promise.resolve(online.length), users: () => Promise.resolve(online) };
    const realtime = { systemSockets: () => [[admin.socket, ['staff', 'admin']]] } as unknown as Realtime;
    const users = { firstNames: (ids: string[]) => Promise.resolve(new Map(ids.map((id) => [id, `Name ${id}`]))) };
    await new OnlinePusher(presence as unknown as Presence, realtime, users as unknown as UserDirectory).look();

    const list = admin.got.find((g) => g.event === 'onlineUsers')!.payload as OnlineUsersPush;
    expect(list.total).toBe(1_234);
    expect(list.users).toHaveLength(ONLINE_USERS_LISTED);
    expect(list.users[0]!.firstName).toBe('Name u-0000');
  });
});
