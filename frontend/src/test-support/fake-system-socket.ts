import type { PingRequest, Pong, SocketErrorAnswer } from '@serendip/proto';
import {
  type HandshakeQuery,
  SeenPushes,
  type SocketLifecycleEvent,
  type SystemPush,
  type SystemSocketConnection,
} from '../features/system/system-socket';

type PingAnswerer = (request: PingRequest) => Promise<Pong | SocketErrorAnswer>;

/** A system socket that never touches the network: the test says when it connects and how pings are answered. */
export class FakeSystemSocket implements SystemSocketConnection {
  private listeners = new Set<(event: SocketLifecycleEvent) => void>();
  readonly pings: PingRequest[] = [];
  connected = false;
  closed = false;
  reconnects = 0;
  renewals = 0;
  /** The handshake query the page asked for last (at opening, or at a renewal that named one). */
  query: HandshakeQuery | undefined;
  private readonly seen = new SeenPushes();

  // Unanswered by default, like a server that is still thinking.
  constructor(private answerPing: PingAnswerer = () => new Promise(() => {})) {}

  subscribe(listener: (event: SocketLifecycleEvent) => void): () => void {
    this.listeners.add(listener);
    if (this.connected) listener({ type: 'connected' });
    return () => this.listeners.delete(listener);
  }

  ping(request: PingRequest): Promise<Pong | SocketErrorAnswer> {
    this.pings.push(request);
    return this.answerPing(request);
  }

  reconnect(): void {
    this.reconnects += 1;
  }

  renew(query?: HandshakeQuery): void {
    this.renewals += 1;
    if (query) this.query = query;
  }

  close(): void {
    this.closed = true;
  }

  /** The server pushes something; a repeat of an event id is dropped, as the real connection does. */
  serverPushes(push: SystemPush): void {
    const fresh = this.seen.freshPart(push.payload);
    if (fresh) this.emit({ type: 'pushed', push: { ...push, payload: fresh } as SystemPush });
  }

  serverConnects(): void {
    this.connected = true;
    this.emit({ type: 'connected' });
  }

  serverDrops(reason = 'transport close'): void {
    this.connected = false;
    this.emit({ type: 'disconnected', reason });
  }

  private emit(event: SocketLifecycleEvent): void {
    for (const listener of this.listeners) listener(event);
  }
}
