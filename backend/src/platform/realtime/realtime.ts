import { Inject, Injectable, Logger, type OnApplicationShutdown } from '@nestjs/common';
import {
  type DeviceType,
  type SessionEndCode,
  type SystemPushEvent,
  type SystemPushPayload,
  type UserPush,
  userPushSchema,
} from '@serendip/proto';
import { EVENT_CORE, type EventCore } from '../event-core/event-core.js';
import type { BusMessage, BusSubscription } from '../messaging/message-bus.js';
import { RecentIds } from '../messaging/recent-ids.js';
import { userSubject } from '../messaging/subjects.js';
import { Presence, type PresenceHandle, type PresenceStatus } from './presence.js';

/** A socket this node holds for a signed-in user, in any namespace, as its gateway registers it. */
export interface LiveSocket {
  userId: string;
  sessionId: string;
  /** Roles whose pushes it takes as well (admins: 'admin') when it registers; `setRoles` changes them later. */
  roles: readonly string[];
  /** A system socket's device, from its handshake (spec 7): what the admins' list of who is online shows. */
  device?: DeviceType;
  /** A typed system event; absent on sockets that take none (the video namespace). */
  push?<E extends SystemPushEvent>(event: E, payload: SystemPushPayload<E>): void;
  /**
   * Sockets of one server share one: a push to many of them (everyone's, a role's) is handed to it once, for all of
   * them, and encoded once (Socket.IO's broadcast), rather than once a socket through `push`.
   */
  group?: PushGroup;
  /** Its session ended: the gateway tells the client why, then closes it. */
  endSession(ending: SessionEnding, eventId: string): void;
  /**
   * Its user's role, two-factor login or ban changed: the gateway reads them again, calls `setRoles`, then tells the client
   * (`eventId`: the change's). Absent on sockets that take no role pushes.
   */
  refreshAccess?(eventId: string): void;
}

/** Hands one push to many sockets at once; see `LiveSocket.group`. */
export interface PushGroup {
  pushAll<E extends SystemPushEvent>(sockets: readonly LiveSocket[], event: E, payload: SystemPushPayload<E>): void;
}

/**
 * The group of a Socket.IO server's sockets: `to(their ids).emit(...)` encodes the packet (and its WebSocket frame)
 * once for all of them. `idOf` names each socket's Socket.IO id.
 */
export function socketIoGroup(
  server: { to(room: string[]): { emit(event: string, payload: unknown): unknown } },
  idOf: (socket: LiveSocket) => string | undefined,
): PushGroup {
  return {
    pushAll: (sockets, event, payload) => {
      const ids = sockets.map(idOf).filter((id): id is string => id !== undefined);
      if (ids.length) server.to(ids).emit(event, payload);
    },
  };
}

/** Why a session ended: a code for the client's logic, a reason for people. */
export interface SessionEnding {
  code: SessionEndCode;
  reason: string;
}

/** `role.<role>`: pushes to every socket of a role, wherever it is (DESIGN.md "Fan-out: NATS"). */
export const roleSubject = (role: string) => `role.${role}`;

/**
 * The role of every system socket whose account may use the app now (signed in, no ban on): what the feed's live
 * pushes go to, so a banned person's open page hears nothing of what they may not read.
 */
export const MEMBERS_ROLE = 'member';

/** Pushes to every signed-in system socket, wherever it is (DESIGN.md "Fan-out: NATS"). */
export const EVERYONE_SUBJECT = 'everyone.signed-in';

/** A socket's own audiences: its user's, and everyone's for a system socket (one that takes pushes). */
const ownSubjects = (socket: LiveSocket) =>
  socket.push ? [userSubject(socket.userId), EVERYONE_SUBJECT] : [userSubject(socket.userId)];

type Audience = { sockets: Set<LiveSocket>; subscription: BusSubscription & { ready?: Promise<void> } };

/**
 * The live path from events to people (DESIGN.md "Fan-out: NATS"): a context that learns something a user must see now
 * pushes it here; it travels on `user.<id>` (or `role.<role>`) to whichever nodes hold that user's sockets, and each
 * node hands it to the sockets it holds. At least once: a repeat carries the same id, and is dropped here and by the
 * client.
 */
@Injectable()
export class Realtime implements OnApplicationShutdown {
  private readonly logger = new Logger(Realtime.name);
  private readonly audiences = new Map<string, Audience>();
  private readonly seen = new RecentIds();
  /** The roles each registered socket takes pushes of now; a socket is here from register to unregister. */
  private readonly rolesOf = new Map<LiveSocket, readonly string[]>();
  /** Each system socket's say in its user's presence (online or away). */
  private readonly presenceOf = new Map<LiveSocket, PresenceHandle>();

  constructor(
    @Inject(EVENT_CORE) private readonly core: EventCore,
    private readonly presence: Presence,
  ) {}

  /**
   * Starts delivering to a socket; resolves once this node listens for its user (and roles), so nothing pushed
   * after that is missed. Call the answer when the socket goes.
   */
  async register(socket: LiveSocket): Promise<() => Promise<void>> {
    const roles = [...new Set(socket.roles)];
    this.rolesOf.set(socket, roles);
    const subjects = [...ownSubjects(socket), ...roles.map(roleSubject)];
    await Promise.all(subjects.map((subject) => this.join(subject, socket)));
    // A socket that takes system pushes is a system socket: its user is online (the dashboard's count).
    if (socket.push) this.presenceOf.set(socket, this.presence.join(socket.userId, socket.device));
    return async () => {
      this.presenceOf.get(socket)?.leave();
      this.presenceOf.delete(socket);
      const held = this.rolesOf.get(socket) ?? [];
      this.rolesOf.delete(socket);
      await Promise.all(
        [...ownSubjects(socket), ...held.map(roleSubject)].map((subject) => this.leave(subject, socket)),
      );
    };
  }

  /**
   * Changes which roles' pushes a registered socket takes (its user's role changed, spec 6 Admin). A role it loses
   * stops reaching it before this returns control: delivery runs on this thread, so no push of that role that arrives
   * afterwards, even one already on its way, reaches it. Resolves once this node listens for the roles it gains. A
   * socket already unregistered is left alone.
   */
  async setRoles(socket: LiveSocket, roles: readonly string[]): Promise<void> {
    const before = this.rolesOf.get(socket);
    if (!before) return;
    const after = [...new Set(roles)];
    this.rolesOf.set(socket, after);
    const leaving = before.filter((r) => !after.includes(r)).map((r) => this.leave(roleSubject(r), socket));
    const joining = after.filter((r) => !before.includes(r)).map((r) => this.join(roleSubject(r), socket));
    await Promise.all([...leaving, ...joining]);
  }

  /** A registered system socket's page went out of sight ('away') or came back ('online'), spec 4 "Presence". */
  setStatus(socket: LiveSocket, status: PresenceStatus) {
    this.presenceOf.get(socket)?.set(status);
  }

  /** The system sockets this node holds now, each with the roles whose pushes it takes. */
  *systemSockets(): Iterable<[LiveSocket, readonly string[]]> {
    for (const [socket, roles] of this.rolesOf) if (socket.push) yield [socket, roles];
  }

  /** Every system socket of one user, on every node, reads its access again (a role, two-factor or ban change). */
  refreshAccess(userId: string, id: string) {
    return this.publish(userSubject(userId), { kind: 'refresh-access', id });
  }

  /** A typed system event to every system socket of one user, on every node. */
  toUser<E extends SystemPushEvent>(
    userId: string,
    event: E,
    payload: Omit<SystemPushPayload<E>, 'eventId'>,
    id: string,
  ) {
    return this.publish(userSubject(userId), { kind: 'emit', id, event, payload });
  }

  /**
   * A typed system event to every signed-in system socket, on every node (an announcement to everyone): one message
   * on the bus, which each node hands to the sockets it holds.
   */
  toEveryone<E extends SystemPushEvent>(event: E, payload: Omit<SystemPushPayload<E>, 'eventId'>, id: string) {
    return this.publish(EVERYONE_SUBJECT, { kind: 'emit', id, event, payload });
  }

  /** A typed system event to every socket of a role (e.g. all admins), on every node. */
  toRole<E extends SystemPushEvent>(
    role: string,
    event: E,
    payload: Omit<SystemPushPayload<E>, 'eventId'>,
    id: string,
  ) {
    return this.publish(roleSubject(role), { kind: 'emit', id, event, payload });
  }

  /** Closes every socket of one session, on every node, after telling the client why. */
  endSession(userId: string, sessionId: string, { code, reason }: SessionEnding, id: string) {
    return this.publish(userSubject(userId), { kind: 'end-session', id, sessionId, code, reason });
  }

  async onApplicationShutdown() {
    const audiences = [...this.audiences.values()];
    this.audiences.clear();
    await Promise.all(audiences.map((a) => a.subscription.unsubscribe()));
  }

  private publish(subject: string, push: UserPush): Promise<void> {
    return this.core.bus.publish({ subject, id: push.id, data: push });
  }

  private async join(subject: string, socket: LiveSocket) {
    let audience = this.audiences.get(subject);
    if (!audience) {
      const sockets = new Set<LiveSocket>();
      const subscription = this.core.bus.subscribe(subject, (message) => this.deliver(subject, sockets, message));
      audience = { sockets, subscription };
      this.audiences.set(subject, audience);
    }
    audience.sockets.add(socket);
    await audience.subscription.ready;
  }

  private async leave(subject: string, socket: LiveSocket) {
    const audience = this.audiences.get(subject);
    if (!audience) return;
    audience.sockets.delete(socket);
    if (audience.sockets.size > 0) return;
    this.audiences.delete(subject);
    await audience.subscription.unsubscribe();
  }

  private deliver(subject: string, sockets: Set<LiveSocket>, message: BusMessage) {
    const parsed = userPushSchema.safeParse(message.data);
    if (!parsed.success) {
      this.logger.warn(`malformed push on ${subject.split('.')[0]}.*: ${parsed.error.issues[0]?.message ?? ''}`);
      return;
    }
    const push = parsed.data;
    const key = `${subject}:${push.id}`;
    if (this.seen.has(key)) return;
    this.seen.remember(key);
    if (push.kind === 'emit') return this.emit(sockets, push.event, { ...push.payload, eventId: push.id } as never);
    for (const socket of [...sockets]) {
      try {
        if (push.kind === 'end-session') {
          if (socket.sessionId === push.sessionId) socket.endSession({ code: push.code, reason: push.reason }, push.id);
        } else {
          socket.refreshAccess?.(push.id);
        }
      } catch (error) {
        this.logger.error(`push to a socket failed: ${(error as Error).message}`);
      }
    }
  }

  /** One payload object for all; the sockets of a group in one hand-over (an announcement to 10,000 is one encoding). */
  private emit<E extends SystemPushEvent>(sockets: Set<LiveSocket>, event: E, payload: SystemPushPayload<E>) {
    const groups = new Map<PushGroup, LiveSocket[]>();
    for (const socket of sockets) {
      if (!socket.push) continue;
      if (socket.group) {
        const members = groups.get(socket.group);
        if (members) members.push(socket);
        else groups.set(socket.group, [socket]);
        continue;
      }
      try {
        socket.push(event, payload);
      } catch (error) {
        this.logger.error(`push to a socket failed: ${(error as Error).message}`);
      }
    }
    for (const [group, members] of groups) {
      try {
        group.pushAll(members, event, payload);
      } catch (error) {
        this.logger.error(`push to ${members.length} sockets failed: ${(error as Error).message}`);
      }
    }
  }
}
