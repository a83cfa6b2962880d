import type { PingRequest, Pong, SocketErrorAnswer } from '@serendip/proto';
import type { SocketLifecycleEvent, SystemSocketConnection } from '../features/system/system-socket';

type PingAnswerer = (request: PingRequest) => Promise<Pong | SocketErrorAnswer>;

/** A system socket that never touches the network: the test says when it connects and how pings are answered. */
export class FakeSystemSocket implements SystemSocketConnection {
  private listeners = new Set<(event: SocketLifecycleEvent) => void>();
  readonly pings: PingRequest[] = [];
  connected = false;
  closed = false;
  reconnects = 0;

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

  close(): void {
    this.closed = true;
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
