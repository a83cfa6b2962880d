import {
  type DeviceType,
  type PingRequest,
  type Pong,
  SOCKET_RECONNECTION,
  type SocketErrorAnswer,
  SYSTEM_EVENTS,
  SYSTEM_PUSH_EVENTS,
  type SystemClientToServerEvents,
  type SystemPushEvent,
  type SystemPushPayload,
  type SystemServerToClientEvents,
} from '@serendip/proto';
import type { Socket } from 'socket.io-client';
import { followVisibility } from '../presence/visibility';

export type SystemSocket = Socket<SystemServerToClientEvents, SystemClientToServerEvents>;

/** Something the server pushed (DESIGN.md "Fan-out: NATS"), once per event id. */
export type SystemPush = { [E in SystemPushEvent]: { event: E; payload: SystemPushPayload<E> } }[SystemPushEvent];

export type SocketLifecycleEvent =
  { type: 'connected' } | { type: 'disconnected'; reason: string } | { type: 'pushed'; push: SystemPush };

/**
 * The system socket as the sagas see it. The Socket.IO instance stays in here, out of Redux (it is not
 * serializable), and tests swap in a fake instead of opening a real connection.
 */
export interface SystemSocketConnection {
  /** Calls the listener on every connect and disconnect; returns the unsubscribe function. */
  subscribe(listener: (event: SocketLifecycleEvent) => void): () => void;
  /** Rejects when the server does not answer within PING_TIMEOUT_MS. */
  ping(request: PingRequest): Promise<Pong | SocketErrorAnswer>;
  /** Tries again after Socket.IO has given up; harmless while it is still retrying or connected. */
  reconnect(): void;
  /**
   * Connects anew, so the server sees the current sign-in (its cookie is read at the handshake); `query` replaces the
   * handshake's query for this and every later connection.
   */
  renew(query?: HandshakeQuery): void;
  close(): void;
}

export const PING_TIMEOUT_MS = 5_000;

/** spec 7: the handshake's query (systemSocketQuerySchema): who the page thinks is signed in, and the device. */
export interface HandshakeQuery {
  userId?: string;
  device: DeviceType;
}

/** spec 7, 9: 'mobile' when the window is at most 768 px wide. */
export function handshakeQuery(userId: string | undefined, width = window.innerWidth): HandshakeQuery {
  const device: DeviceType = width <= 768 ? 'mobile' : 'desktop';
  return userId ? { userId, device } : { device };
}

/**
 * Opens the default namespace on the page's own origin (dev: Vite proxies /socket.io to the backend). Socket.IO is
 * its own chunk, fetched after the first page is up: no first paint waits for it (first-visit size budget).
 */
export async function openSystemSocket(
  query: HandshakeQuery = handshakeQuery(undefined),
): Promise<SystemSocketConnection> {
  const { io } = await import('socket.io-client');
  const socket: SystemSocket = io({
    ...SOCKET_RECONNECTION, // spec 9
    transports: ['websocket'], // spec 7: websocket transport only
    withCredentials: true,
    query: { ...query },
  });
  return new SystemConnection(socket);
}

/** Delivery is at least once: a push whose event id was seen lately is a repeat. */
export class SeenPushes {
  private readonly ids = new Set<string>();
  constructor(private readonly capacity = 500) {}

  /** True the first time an id is offered. */
  firstTime(id: string): boolean {
    if (this.ids.has(id)) return false;
    this.ids.add(id);
    if (this.ids.size > this.capacity) this.ids.delete(this.ids.values().next().value!);
    return true;
  }

  /**
   * What of a push is new: the push itself when its event id is, or, for an array (spec 7 lets newNotification be
   * one), the elements whose event ids are (an array's own id counts too), as an array; undefined when nothing is.
   */
  freshPart<P>(payload: P): P | undefined {
    if (Array.isArray(payload)) {
      const own = (payload as { eventId?: unknown }).eventId;
      if (typeof own === 'string' && !this.firstTime(own)) return undefined;
      const fresh = payload.filter(
        (item: { eventId?: unknown }) => typeof item?.eventId !== 'string' || this.firstTime(item.eventId),
      );
      return fresh.length > 0 ? (fresh as P) : undefined;
    }
    const id = (payload as { eventId?: unknown } | null)?.eventId;
    return typeof id === 'string' && this.firstTime(id) ? payload : undefined;
  }
}

class SystemConnection implements SystemSocketConnection {
  private readonly seen = new SeenPushes();

  /** spec 4 "Presence": away and back follow the page's visibility for as long as the connection is kept. */
  private readonly stopFollowing: () => void;

  constructor(private readonly socket: SystemSocket) {
    this.stopFollowing = followVisibility(socket);
  }

  subscribe(listener: (event: SocketLifecycleEvent) => void): () => void {
    const onConnect = () => listener({ type: 'connected' });
    const onDisconnect = (reason: string) => listener({ type: 'disconnected', reason });
    // A failed attempt is a disconnect as far as the user is concerned; the manager keeps retrying.
    const onConnectError = (error: Error) => listener({ type: 'disconnected', reason: error.message });
    const onPush = (event: SystemPushEvent) => (payload: SystemPushPayload<SystemPushEvent>) => {
      const fresh = this.seen.freshPart(payload);
      if (fresh) listener({ type: 'pushed', push: { event, payload: fresh } as SystemPush });
    };
    const pushHandlers = SYSTEM_PUSH_EVENTS.map((event) => [event, onPush(event)] as const);
    this.socket.on('connect', onConnect);
    this.socket.on('disconnect', onDisconnect);
    this.socket.on('connect_error', onConnectError);
    for (const [event, handler] of pushHandlers) this.socket.on(event, handler as never);
    if (this.socket.connected) onConnect();
    return () => {
      this.socket.off('connect', onConnect);
      this.socket.off('disconnect', onDisconnect);
      this.socket.off('connect_error', onConnectError);
      for (const [event, handler] of pushHandlers) this.socket.off(event, handler as never);
    };
  }

  ping(request: PingRequest): Promise<Pong | SocketErrorAnswer> {
    return this.socket.timeout(PING_TIMEOUT_MS).emitWithAck(SYSTEM_EVENTS.ping, request);
  }

  reconnect(): void {
    if (!this.socket.connected) this.socket.connect();
  }

  renew(query?: HandshakeQuery): void {
    // The manager hands its options to every new transport: the next handshake (a retry too) carries this query.
    if (query) this.socket.io.opts.query = { ...query };
    // A connection still being made reads the cookies as they are when it opens; only an open one is behind.
    if (!this.socket.connected) return;
    this.socket.disconnect();
    this.socket.connect();
  }

  close(): void {
    this.stopFollowing();
    this.socket.disconnect();
  }
}
