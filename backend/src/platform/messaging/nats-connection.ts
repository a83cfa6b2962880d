import { connect, Events, type NatsConnection } from 'nats';
import type { Logger } from 'pino';
import { safeUrl } from '../logging/logger.js';
import { backoffDelay, sleep } from '../shared/backoff.js';

export interface NatsConnectionOptions {
  /** One server URL, or several separated by commas (a cluster). */
  url: string;
  logger: Logger;
  /** Shown on the server's monitoring pages. */
  name?: string;
  /** After each reconnect: the server may be a fresh one that lost its streams. */
  onReconnect?: () => void;
}

export interface NatsServers {
  servers: string[];
  user?: string;
  pass?: string;
  token?: string;
}

/**
 * The servers and credentials of a NATS_URL (`nats://app:PASSWORD@nats:4222`, several separated by commas). The nats
 * client ignores a user and password in a server URL, so they are taken out here and handed to it as options; a
 * user without a password is a token, as in the NATS tools. The servers keep no credentials, so no log shows them.
 */
export function natsServers(url: string): NatsServers {
  const found: NatsServers = { servers: [] };
  for (const server of url.split(',').map((s) => s.trim())) {
    if (!server) continue;
    let parsed: URL;
    try {
      parsed = new URL(server.includes('://') ? server : `nats://${server}`);
    } catch {
      found.servers.push(server); // the client says what is wrong with it
      continue;
    }
    if (parsed.username && !found.user && !found.token) {
      const name = decoded(parsed.username);
      if (parsed.password) Object.assign(found, { user: name, pass: decoded(parsed.password) });
      else found.token = name;
    }
    found.servers.push(server.includes('://') ? `${parsed.protocol}//${parsed.host}` : parsed.host);
  }
  return found;
}

function decoded(part: string): string {
  try {
    return decodeURIComponent(part);
  } catch {
    return part; // a stray %: taken as it is
  }
}

/** How long a caller waits for NATS to be up before it hears that it is not (callers retry). */
const UP_WAIT_MS = 5_000;
const DRAIN_TIMEOUT_MS = 5_000;

/**
 * A NATS connection that is made in the background and kept: the first connect is retried until it works
 * and reconnects go on forever with backoff, so an app starts and keeps running while NATS is away.
 */
export class KeptNatsConnection {
  private nc: NatsConnection | undefined;
  private readonly first: Promise<NatsConnection>;
  private whenUp: Promise<NatsConnection>;
  private markUp: ((nc: NatsConnection) => void) | undefined;
  private isUp = false;
  private reconnectAttempt = 0;
  private readonly closing = new AbortController();
  private readonly closed: Promise<never>;

  constructor(private readonly options: NatsConnectionOptions) {
    this.closed = new Promise((_, reject) =>
      this.closing.signal.addEventListener('abort', () => reject(new Error('the message bus is closed'))),
    );
    this.first = this.connectUntilUp();
    this.whenUp = this.first;
    // Nobody may be waiting yet; a connection closed before it came up rejects these.
    this.closed.catch(() => undefined);
    this.first.catch(() => undefined);
  }

  /** The first connection, whenever it comes (subscriptions attach to it; the client resubscribes itself). */
  get established(): Promise<NatsConnection> {
    return this.first;
  }

  /** The connection once it is up; rejects when it is not up within a few seconds, or is closed. */
  async up(): Promise<NatsConnection> {
    if (this.closing.signal.aborted) throw new Error('the message bus is closed');
    if (this.isUp && this.nc) return this.nc;
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error('NATS is not reachable')), UP_WAIT_MS);
    });
    try {
      return await Promise.race([this.whenUp, late, this.closed]);
    } finally {
      clearTimeout(timer);
    }
  }

  /** Lets subscriptions finish what they hold (bounded), then disconnects. */
  async close(): Promise<void> {
    if (this.closing.signal.aborted) return;
    this.closing.abort();
    const nc = this.nc;
    if (!nc) return;
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<void>((resolve) => (timer = setTimeout(resolve, DRAIN_TIMEOUT_MS)));
    await Promise.race([nc.drain().catch(() => undefined), late]);
    clearTimeout(timer);
    if (!nc.isClosed()) await nc.close();
  }

  private async connectUntilUp(): Promise<NatsConnection> {
    const { servers, ...credentials } = natsServers(this.options.url);
    // Never a password in a log line.
    const where = servers.map((s) => safeUrl(s.includes('://') ? s : `nats://${s}`));
    for (let attempt = 0; !this.closing.signal.aborted; attempt++) {
      try {
        const nc = await connect({
          servers,
          ...credentials,
          name: this.options.name ?? 'serendip-backend',
          maxReconnectAttempts: -1,
          reconnectDelayHandler: () => backoffDelay(this.reconnectAttempt++, 100, 2_000),
          pingInterval: 20_000,
        });
        if (this.closing.signal.aborted) {
          await nc.close();
          break;
        }
        this.nc = nc;
        this.isUp = true;
        this.options.logger.info({ servers: where }, 'connected to NATS');
        void this.watch(nc);
        return nc;
      } catch (error) {
        if (attempt % 20 === 0)
          this.options.logger.warn({ err: error, servers: where }, 'NATS not reachable; retrying');
      }
      await sleep(backoffDelay(attempt, 200, 5_000), this.closing.signal);
    }
    throw new Error('the message bus is closed');
  }

  private async watch(nc: NatsConnection): Promise<void> {
    for await (const status of nc.status()) {
      if (status.type === Events.Disconnect && this.isUp) {
        this.isUp = false;
        this.whenUp = new Promise((resolve) => (this.markUp = resolve));
        this.options.logger.warn({ server: status.data }, 'lost NATS; reconnecting');
      } else if (status.type === Events.Reconnect) {
        this.reconnectAttempt = 0;
        this.isUp = true;
        this.options.onReconnect?.();
        this.markUp?.(nc);
        this.options.logger.info({ server: status.data }, 'reconnected to NATS');
      } else if (status.type === Events.Error) {
        this.options.logger.error({ err: status.data }, 'NATS reported an error');
      } else if (status.type === Events.LDM) {
        this.options.logger.warn({ server: status.data }, 'NATS server is going away (lame duck mode)');
      }
    }
    const reason = await nc.closed();
    if (reason && !this.closing.signal.aborted) this.options.logger.error({ err: reason }, 'NATS connection closed');
  }
}
