import {
  type PingRequest,
  type Pong,
  SOCKET_RECONNECTION,
  type SocketErrorAnswer,
  SYSTEM_EVENTS,
  type SystemClientToServerEvents,
  type SystemServerToClientEvents,
} from '@serendip/proto';
import type { Socket } from 'socket.io-client';

export type SystemSocket = Socket<SystemServerToClientEvents, SystemClientToServerEvents>;

export type SocketLifecycleEvent = { type: 'connected' } | { type: 'disconnected'; reason: string };

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
  close(): void;
}

export const PING_TIMEOUT_MS = 5_000;

/**
 * Opens the default namespace on the page's own origin (dev: Vite proxies /socket.io to the backend). Socket.IO is
 * its own chunk, fetched after the first page is up: no first paint waits for it (issue 5 size budget).
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

class SystemConnection implements SystemSocketConnection {
  constructor(private readonly socket: SystemSocket) {}

  subscribe(listener: (event: SocketLifecycleEvent) => void): () => void {
    const onConnect = () => listener({ type: 'connected' });
    const onDisconnect = (reason: string) => listener({ type: 'disconnected', reason });
    // A failed attempt is a disconnect as far as the user is concerned; the manager keeps retrying.
    const onConnectError = (error: Error) => listener({ type: 'disconnected', reason: error.message });
    this.socket.on('connect', onConnect);
    this.socket.on('disconnect', onDisconnect);
    this.socket.on('connect_error', onConnectError);
    if (this.socket.connected) onConnect();
    return () => {
      this.socket.off('connect', onConnect);
      this.socket.off('disconnect', onDisconnect);
      this.socket.off('connect_error', onConnectError);
    };
  }

  ping(request: PingRequest): Promise<Pong | SocketErrorAnswer> {
    return this.socket.timeout(PING_TIMEOUT_MS).emitWithAck(SYSTEM_EVENTS.ping, request);
  }

  reconnect(): void {
    if (!this.socket.connected) this.socket.connect();
  }

  close(): void {
    this.socket.disconnect();
  }
}
