import { Logger } from '@nestjs/common';
import {
  ConnectedSocket,
  MessageBody,
  type OnGatewayConnection,
  type OnGatewayInit,
  type OnGatewayDisconnect,
  SubscribeMessage,
  WebSocketGateway,
} from '@nestjs/websockets';
import {
  type DeviceType,
  pingRequestSchema,
  type Pong,
  type SocketErrorAnswer,
  SYSTEM_EVENTS,
  type SystemClientToServerEvents,
  type SystemServerToClientEvents,
  systemSocketQuerySchema,
} from '@serendip/proto';
import { RateLimiterMemory, RateLimiterRes } from 'rate-limiter-flexible';
import type { Server, Socket } from 'socket.io';
import { type AccessClaims, SESSION_EXPIRED, SessionResolver, UserDirectory } from '../../identity/public/index.js';
import {
  type LiveSocket,
  MEMBERS_ROLE,
  type PushGroup,
  Realtime,
  socketIoGroup,
} from '../../platform/realtime/realtime.js';
import { SocketQuota, TOO_MANY_PAGES } from '../../platform/realtime/socket-quota.js';
import { OnlinePusher } from '../presence/online-pusher.js';

/** spec 7: the query's userId must be the session's own. */
export const NOT_YOUR_USER_ID = "The socket's userId is not the signed-in user's.";
export const AWAY_TOO_OFTEN = 'Too many away and back changes; slow down.';

interface SystemSocketState {
  /** The session read at the handshake; undefined for a guest. */
  claims?: AccessClaims;
  device?: DeviceType;
  /** The page's presence as it last said (spec 4): applied when registered, and kept up to date after. */
  status?: 'online' | 'away';
  live?: LiveSocket;

  /** Resolves to how to stop pushes to it; undefined for a guest's socket. */
  registration?: Promise<(() => Promise<void>) | undefined>;
  /** The last reading of the user's access, applied: readings run one after another, so the newest one wins. */
  access?: Promise<void>;
}

type SystemSocket = Socket<
  SystemClientToServerEvents,
  SystemServerToClientEvents,
  Record<string, never>,
  SystemSocketState
>;

/**
 * The default namespace every page opens (spec 7 "Real-time notification socket"). Anyone may ping it (the status
 * indicator works signed out too); a signed-in user's socket also takes live pushes for that user (and for admins,
 * for their role), and closes when its session ends. A role or two-factor change reaches its open sockets at once.
 */
@WebSocketGateway()
export class SystemGateway implements OnGatewayInit, OnGatewayConnection, OnGatewayDisconnect {
  private readonly logger = new Logger(SystemGateway.name);
  /** A page hides and shows as its user switches tabs: a few a second is people, more is a loop or a script. */
  private readonly presenceLimit = new RateLimiterMemory({ points: 20, duration: 10 });
  /** Every page of the app holds a system socket: 32 at once is plenty, more is a script. */
  private readonly quota = new SocketQuota(32);
  /** Each registered socket's Socket.IO id, for pushes handed to many at once (an announcement to everyone). */
  private readonly socketIds = new WeakMap<LiveSocket, string>();
  private group: PushGroup | undefined;

  constructor(
    private readonly sessions: SessionResolver,
    private readonly users: UserDirectory,
    private readonly realtime: Realtime,
    private readonly online: OnlinePusher,
  ) {}

  /**
   * The handshake (spec 7): its query is checked, and a userId that is not the session's user is refused before the
   * socket exists (the client gets connect_error with `data: { reason }`; nothing is registered). The server never takes
   * the user from the query: without a session the socket is a guest's, whatever it says (it can ping, nothing more).
   */
  afterInit(server: Server) {
    this.group = socketIoGroup(server, (live) => this.socketIds.get(live));
    server.use((socket, next) => {
      const refuse = (reason: string) => next(Object.assign(new Error(reason), { data: { reason } }));
      const query = systemSocketQuerySchema.safeParse(socket.handshake.query);
      if (!query.success) {
        const issue = query.error.issues[0];
        return refuse(`query ${issue?.path.join('.') ?? ''}: ${issue?.message ?? 'malformed'}`);
      }
      const data = socket.data as SystemSocketState;
      data.device = query.data.device ?? 'desktop';
      this.sessions.resolve(socket.handshake).then(
        (claims) => {
          if (claims && query.data.userId !== undefined && query.data.userId !== claims.userId) {
            return refuse(NOT_YOUR_USER_ID);
          }
          // A guest's socket can only ping: only a signed-in user's are counted (each holds that user's pushes).
          if (claims && !this.quota.admit(claims.userId, socket)) return refuse(TOO_MANY_PAGES);
          data.claims = claims;
          next();
        },
        (error: unknown) => {
          // As before: an unreadable session leaves a socket that pings, without pushes.
          this.logger.error(`system socket session not read: ${(error as Error).message}`);
          next();
        },
      );
    });
  }

  handleConnection(socket: SystemSocket) {
    socket.data.registration = this.register(socket).catch((error: unknown) => {
      this.logger.error(`system socket not registered: ${(error as Error).message}`);
      return undefined;
    });
  }

  async handleDisconnect(socket: SystemSocket) {
    const unregister = await socket.data.registration;
    await unregister?.();
  }

  @SubscribeMessage(SYSTEM_EVENTS.ping)
  ping(@MessageBody() body: unknown, @ConnectedSocket() socket: SystemSocket): Pong | SocketErrorAnswer {
    const request = pingRequestSchema.safeParse(body);
    if (!request.success) {
      this.logger.debug(`malformed ping from ${socket.id}`);
      return { error: { reason: 'ping needs { sentAt: number }' } };
    }
    return { sentAt: request.data.sentAt, serverTime: Date.now() };
  }

  /** spec 4 "Presence": the page went out of sight. Any body is ignored; a guest has no presence. */
  @SubscribeMessage(SYSTEM_EVENTS.away)
  away(@ConnectedSocket() socket: SystemSocket): Promise<SocketErrorAnswer | undefined> {
    return this.setStatus(socket, 'away');
  }

  /** The page is in sight again. */
  @SubscribeMessage(SYSTEM_EVENTS.back)
  back(@ConnectedSocket() socket: SystemSocket): Promise<SocketErrorAnswer | undefined> {
    return this.setStatus(socket, 'online');
  }

  private async setStatus(socket: SystemSocket, status: 'online' | 'away'): Promise<SocketErrorAnswer | undefined> {
    if (!socket.data.claims) return undefined;
    try {
      await this.presenceLimit.consume(socket.id);
    } catch (error) {
      if (!(error instanceof RateLimiterRes)) throw error;
      this.logger.debug(`away/back too often from ${socket.id}`);
      return { error: { reason: AWAY_TOO_OFTEN } };
    }
    socket.data.status = status;
    if (socket.data.live) this.realtime.setStatus(socket.data.live, status);
    return undefined;
  }

  private async register(socket: SystemSocket) {
    const { claims } = socket.data;
    if (!claims || socket.disconnected) return undefined;
    const live: LiveSocket = {
      userId: claims.userId,
      sessionId: claims.sessionId,
      roles: [],
      device: socket.data.device ?? 'desktop',
      group: this.group,
      push: (event, payload) => (socket.emit as (event: string, payload: unknown) => boolean)(event, payload),
      endSession: ({ code, reason }, eventId) => {
        socket.emit('sessionEnded', { eventId, code, reason });
        socket.disconnect(true);
      },
      // Told after the swap: once the client hears of the change, no push of a role it lost reaches it.
      refreshAccess: (eventId) =>
        void this.readAccess(socket, live, claims).then(() => {
          if (socket.connected) socket.emit('accountUpdated', { eventId, userId: live.userId });
        }),
    };
    // The user's own pushes first, the roles after: a role change from then on reaches this socket (refreshAccess),
    // so one made while it connects is not missed.
    this.socketIds.set(live, socket.id);
    const unregister = await this.realtime.register(live);
    // An away said while this socket was registering is applied now; later ones go straight through.
    socket.data.live = live;
    if (socket.data.status === 'away') this.realtime.setStatus(live, 'away');
    await this.readAccess(socket, live, claims);
    // A session that ended while this socket was being registered was pushed to no one here: look once more.
    if (!(await this.sessions.isActive(claims))) {
      socket.emit('sessionEnded', { eventId: `check:${claims.sessionId}`, code: 'expired', reason: SESSION_EXPIRED });
      socket.disconnect(true);
    }
    return unregister;
  }

  /**
   * MEMBERS_ROLE while no ban is on (the feed's pushes). 'staff': every admin and moderator (the dashboard's live
   * pushes); the role itself for what only it may see. As the
   * dashboard's routes (spec 6 Admin): only with two-factor login on, from a session started with the mailed code, and
   * not while the account is banned. Read at connect and again whenever identity says the user's access changed or
   * moderation says a ban began or ended.
   */
  private readAccess(socket: SystemSocket, live: LiveSocket, claims: AccessClaims): Promise<void> {
    const reading = (socket.data.access ?? Promise.resolve()).then(async () => {
      const [role, restricted] = await Promise.all([
        this.users.staffRoleOf(claims),
        this.users.isRestricted(claims.userId),
      ]);
      const staff = role === 'user' ? [] : ['staff', role];
      await this.realtime.setRoles(live, restricted ? staff : [MEMBERS_ROLE, ...staff]);
      // Who is online, as this node last read it: the number for everyone, the list for an admin.
      if (socket.connected) this.online.greet(live, role === 'admin');
    });
    socket.data.access = reading.catch((error: unknown) => {
      this.logger.error(`system socket access not read: ${(error as Error).message}`);
    });
    return socket.data.access;
  }
}
