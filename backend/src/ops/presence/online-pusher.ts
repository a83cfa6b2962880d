import { randomUUID } from 'node:crypto';
import { Injectable, Logger, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { type OnlineCountPush, type OnlineUser, ONLINE_USERS_LISTED, type OnlineUsersPush } from '@serendip/proto';
import { UserDirectory } from '../../identity/public/index.js';
import { Presence } from '../../platform/realtime/presence.js';
import { type LiveSocket, Realtime } from '../../platform/realtime/realtime.js';

/** Presence is read this often: what users and admins see of it changes at most once a period. */
export const ONLINE_LOOK_EVERY_MS = 2_000;
/** First names are asked again after this long (someone renamed shows so within a minute). */
const NAMES_KEPT_MS = 60_000;

/**
 * Who is online, told live (spec 4 "Presence", spec 7 onlineUsers): every signed-in system socket gets `onlineCount`
 * (the number only, for home and the match screen), and admins' sockets get `onlineUsers` (the list would show every
 * user to everyone; moderators, like users, get the number). Admins only, as spec 7's list is an admin's tool and the
 * dashboard's other personal lists are.
 *
 * Each node tells its own sockets (rather than one leader telling everyone over the bus): a node already knows which
 * sockets it holds and which are admins', a socket that opens gets the figures its node last read at once (a leader's
 * push would reach it only at the next change), no handover is needed, and the cost is one count per node per period
 * (plus the list on nodes holding an admin), which stays small for a handful of realtime nodes. Every period the
 * node reads presence, and pushes only what changed: coalesced to one push per ONLINE_LOOK_EVERY_MS at most.
 */
@Injectable()
export class OnlinePusher implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger(OnlinePusher.name);
  private timer: ReturnType<typeof setInterval> | undefined;
  private busy = false;
  private count: OnlineCountPush | undefined;
  private list: { push: OnlineUsersPush; key: string } | undefined;
  private names = new Map<string, string>();
  private namesReadAt = 0;

  constructor(
    private readonly presence: Presence,
    private readonly realtime: Realtime,
    private readonly users: UserDirectory,
  ) {}

  onApplicationBootstrap() {
    this.timer = setInterval(() => void this.look(), ONLINE_LOOK_EVERY_MS);
    this.timer.unref?.();
  }

  onApplicationShutdown() {
    clearInterval(this.timer);
  }

  /** A system socket just registered, or its roles were read again: it gets what this node last told, at once. */
  greet(socket: LiveSocket, isAdmin: boolean) {
    if (this.count) socket.push?.('onlineCount', this.count);
    if (isAdmin && this.list) socket.push?.('onlineUsers', this.list.push);
  }

  /** One reading; exported for tests that cannot wait a period. */
  async look() {
    if (this.busy) return;
    this.busy = true;
    try {
      const sockets = [...this.realtime.systemSockets()];
      if (sockets.length === 0) {
        // Nobody here to tell: the next socket gets a fresh reading rather than an old one.
        this.count = undefined;
        this.list = undefined;
        return;
      }
      const count = await this.presence.count();
      if (count !== this.count?.count) {
        this.count = { eventId: randomUUID(), count };
        for (const [socket] of sockets) this.tell(socket, 'onlineCount', this.count);
      }
      if (!sockets.some(([, roles]) => roles.includes('admin'))) {
        this.list = undefined;
        return;
      }
      const everyone = await this.named(await this.presence.users());
      const users = everyone.slice(0, ONLINE_USERS_LISTED);
      const key = JSON.stringify([everyone.length, users]);
      if (key === this.list?.key) return;
      this.list = { push: { eventId: randomUUID(), users, total: everyone.length }, key };
      // Admins as they are now, not before the reads above: one demoted meanwhile (setRoles) must not get the list.
      for (const [socket, roles] of this.realtime.systemSockets()) {
        if (roles.includes('admin')) this.tell(socket, 'onlineUsers', this.list.push);
      }
    } catch (error) {
      this.logger.warn(`presence not told: ${(error as Error).message}`);
    } finally {
      this.busy = false;
    }
  }

  private tell<E extends 'onlineCount' | 'onlineUsers'>(
    socket: LiveSocket,
    event: E,
    payload: E extends 'onlineCount' ? OnlineCountPush : OnlineUsersPush,
  ) {
    try {
      socket.push?.(event, payload as never);
    } catch (error) {
      this.logger.error(`push to a socket failed: ${(error as Error).message}`);
    }
  }

  /** First names from identity's directory (never stored with presence), by name then id. */
  private async named(present: Awaited<ReturnType<Presence['users']>>): Promise<OnlineUser[]> {
    if (Date.now() - this.namesReadAt > NAMES_KEPT_MS) {
      this.names = new Map();
      this.namesReadAt = Date.now();
    }
    const missing = present.map((u) => u.userId).filter((id) => !this.names.has(id));
    if (missing.length) {
      const found = await this.users.firstNames(missing);
      for (const id of missing) this.names.set(id, found.get(id) ?? '');
    }
    return present
      .map((u) => ({ ...u, firstName: this.names.get(u.userId) ?? '' }))
      .sort((a, b) => a.firstName.localeCompare(b.firstName) || a.userId.localeCompare(b.userId));
  }
}
