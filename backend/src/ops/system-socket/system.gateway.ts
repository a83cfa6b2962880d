import { Logger } from '@nestjs/common';
import {
  ConnectedSocket,
  MessageBody,
  type OnGatewayConnection,
  type OnGatewayDisconnect,
  SubscribeMessage,
  WebSocketGateway,
} from '@nestjs/websockets';
import {
  pingRequestSchema,
  type Pong,
  type SocketErrorAnswer,
  SYSTEM_EVENTS,
  type SystemClientToServerEvents,
  type SystemServerToClientEvents,
} from '@serendip/proto';
import type { Socket } from 'socket.io';
import { type AccessClaims, SESSION_EXPIRED, SessionResolver, UserDirectory } from '../../identity/public/index.js';
import { type LiveSocket, Realtime } from '../../platform/realtime/realtime.js';

interface SystemSocketState {
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
export class SystemGateway implements OnGatewayConnection, OnGatewayDisconnect {
  private readonly logger = new Logger(SystemGateway.name);

  constructor(
    private readonly sessions: SessionResolver,
    private readonly users: UserDirectory,
    private readonly realtime: Realtime,
  ) {}

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

  private async register(socket: SystemSocket) {
    const claims = await this.sessions.resolve(socket.handshake);
    if (!claims || socket.disconnected) return undefined;
    const live: LiveSocket = {
      userId: claims.userId,
      sessionId: claims.sessionId,
      roles: [],
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
    const unregister = await this.realtime.register(live);
    await this.readAccess(socket, live, claims);
    // A session that ended while this socket was being registered was pushed to no one here: look once more.
    if (!(await this.sessions.isActive(claims))) {
      socket.emit('sessionEnded', { eventId: `check:${claims.sessionId}`, code: 'expired', reason: SESSION_EXPIRED });
      socket.disconnect(true);
    }
    return unregister;
  }

  /**
   * 'staff': every admin and moderator (the dashboard's live pushes); the role itself for what only it may see. As the
   * dashboard's routes (spec 6 Admin): only with two-factor login on, from a session started with the mailed code, and
   * not while the account is banned. Read at connect and again whenever identity says the user's access changed or
   * moderation says a ban began or ended.
   */
  private readAccess(socket: SystemSocket, live: LiveSocket, claims: AccessClaims): Promise<void> {
    const reading = (socket.data.access ?? Promise.resolve()).then(async () => {
      const role = await this.users.staffRoleOf(claims);
      await this.realtime.setRoles(live, role === 'user' ? [] : ['staff', role]);
    });
    socket.data.access = reading.catch((error: unknown) => {
      this.logger.error(`system socket access not read: ${(error as Error).message}`);
    });
    return socket.data.access;
  }
}
