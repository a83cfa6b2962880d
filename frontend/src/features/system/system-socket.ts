import {
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
  /** Connects anew, so the server sees the current sign-in (its cookie is read at the handshake). */
  renew(): void;
  close(): void;
}

export const PING_TIMEOUT_MS = 5_000;

/**
 * Opens the default namespace on the page's own origin (dev: Vite proxies /socket.io to the backend). Socket.IO is
 * its own chunk, fetched after the first page is up: no first paint waits for it (first-visit size budget).
 */
export async function openSystemSocket(): Promise<SystemSocketConnection> {
  const { io } = await import('socket.io-client');
  const socket: SystemSocket = io({
    ...SOCKET_RECONNECTION, // spec 9
    transports: ['websocket'], // spec 7: websocket transport only
    withCredentials: true,
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
}

class SystemConnection implements SystemSocketConnection {
  private readonly seen = new SeenPushes();

  constructor(private readonly socket: SystemSocket) {}

  subscribe(listener: (event: SocketLifecycleEvent) => void): () => void {
    const onConnect = () => listener({ type: 'connected' });
    const onDisconnect = (reason: string) => listener({ type: 'disconnected', reason });
    // A failed attempt is a disconnect as far as the user is concerned; the manager keeps retrying.
    const onConnectError = (error: Error) => listener({ type: 'disconnected', reason: error.message });
    const onPush = (event: SystemPushEvent) => (payload: SystemPushPayload<SystemPushEvent>) => {
      if (typeof payload?.eventId === 'string' && this.seen.firstTime(payload.eventId)) {
        listener({ type: 'pushed', push: { event, payload } as SystemPush });
      }
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

  renew(): void {
    // A connection still being made reads the cookies as they are when it opens; only an open one is behind.
    if (!this.socket.connected) return;
    this.socket.disconnect();
    this.socket.connect();
  }

  close(): void {
    this.socket.disconnect();
  }
}
