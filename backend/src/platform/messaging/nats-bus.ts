import { ErrorCode, headers, type Msg, type NatsConnection, NatsError, type Subscription } from 'nats';
import type { Logger } from 'pino';
import {
  type BusMessage,
  type BusSubscription,
  DEFAULT_REQUEST_TIMEOUT_MS,
  type MessageBus,
  NoResponderError,
  RequestTimeoutError,
  type SubscribeOptions,
} from './message-bus.js';
import { isEventSubject } from './event-subjects.js';
import { KeptNatsConnection } from './nats-connection.js';
import { DurableSubscription, type NatsLink } from './nats-durable-subscription.js';
import { ensureEventStream, MESSAGE_ID_HEADER } from './nats-event-stream.js';
import { LIVE_REPEAT_WINDOW_MS, RecentIds } from './recent-ids.js';

export interface NatsBusOptions {
  /** One server URL, or several separated by commas (a cluster). */
  url: string;
  logger: Logger;
  /** Shown on the server's monitoring pages. */
  name?: string;
}

/** A subscription on NATS; `ready` resolves once the server routes messages to it. */
export type NatsSubscription = BusSubscription & { ready: Promise<void> };

type Handler = (message: BusMessage) => void | Promise<void>;

const PUBLISH_ACK_TIMEOUT_MS = 3_000;

/**
 * The message bus over NATS. `evt.*` messages go through JetStream (stored, deduplicated by id on the
 * server, acknowledged); other subjects (`user.<id>`) are plain NATS, live only. The connection is kept
 * in the background (`KeptNatsConnection`): a publish while NATS is away fails after a few seconds and the
 * caller retries; subscriptions come back by themselves.
 */
export class NatsBus implements MessageBus, NatsLink {
  readonly logger: Logger;
  private readonly connection: KeptNatsConnection;
  private eventStream: Promise<void> | undefined;
  private readonly durables = new Set<DurableSubscription>();
  /** Plain messages published in this turn of the event loop, sent together at its end (see publish). */
  private outbox: { nc: NatsConnection; subject: string; payload: Uint8Array; id: string }[] = [];
  private outboxDue: NodeJS.Immediate | undefined;

  constructor(options: NatsBusOptions) {
    this.logger = options.logger;
    this.connection = new KeptNatsConnection({
      ...options,
      onReconnect: () => (this.eventStream = undefined),
    });
  }

  connected(): Promise<NatsConnection> {
    return this.connection.up();
  }

  async publish(message: BusMessage): Promise<void> {
    const nc = await this.connected();
    const payload = new TextEncoder().encode(JSON.stringify(message.data ?? null));
    if (!isEventSubject(message.subject)) {
      // The client writes to the socket once per turn of the microtask queue: a chat relay's publish, sent alone,
      // costs a write of its own (the serving process's largest cost in bench:sockets). Held to the end of this turn
      // of the event loop, what every socket read in this turn publishes goes out in one write, in order.
      this.outbox.push({ nc, subject: message.subject, payload, id: message.id });
      this.outboxDue ??= setImmediate(() => this.sendOutbox());
      return;
    }
    await this.ensureEventStream(nc);
    try {
      await nc.jetstream().publish(message.subject, payload, { msgID: message.id, timeout: PUBLISH_ACK_TIMEOUT_MS });
    } catch (error) {
      this.eventStream = undefined; // a server that lost its storage needs the stream made again
      throw error;
    }
  }

  subscribe(pattern: string, handler: Handler, options: SubscribeOptions = {}): NatsSubscription {
    if (options.durable) {
      if (!isEventSubject(pattern)) throw new Error(`a durable subscription needs an evt.* pattern: ${pattern}`);
      const durable = new DurableSubscription(this, pattern, options.durable, handler);
      this.durables.add(durable);
      return {
        ready: durable.ready,
        unsubscribe: async () => {
          this.durables.delete(durable);
          await durable.unsubscribe();
        },
      };
    }
    let subscription: Subscription | undefined;
    let unsubscribed = false;
    // The client subscribes again by itself after every reconnect.
    const ready = this.connection.established.then(async (nc) => {
      if (unsubscribed) return;
      const inbox = new Inbox(handler, this.logger);
      // A callback, not the client's async iterator: the iterator's pending promises and generator cost a page's
      // subscription (each socket has a few) 2.7 KB of heap more, and every message a round of promises.
      subscription = nc.subscribe(pattern, {
        ...(options.queue ? { queue: options.queue } : {}),
        callback: (error, m) => {
          if (error) this.logger.warn({ err: error, subject: pattern }, 'a subscription failed');
          else inbox.take(m);
        },
      });
      await nc.flush();
    });
    ready.catch(() => undefined); // a bus closed before it connected; whoever awaits `ready` still hears it
    return {
      ready,
      unsubscribe: async () => {
        unsubscribed = true;
        subscription?.unsubscribe();
      },
    };
  }

  async request(subject: string, data: unknown, options: { timeoutMs?: number } = {}): Promise<unknown> {
    const nc = await this.connected();
    const timeout = options.timeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS;
    try {
      const reply = await nc.request(subject, new TextEncoder().encode(JSON.stringify(data ?? null)), { timeout });
      return reply.json();
    } catch (error) {
      if (error instanceof NatsError && error.code === ErrorCode.NoResponders) throw new NoResponderError(subject);
      if (error instanceof NatsError && error.code === ErrorCode.Timeout)
        throw new RequestTimeoutError(subject, timeout);
      throw error;
    }
  }

  serve(
    subject: string,
    handler: (data: unknown) => Promise<unknown>,
    options: { queue?: string } = {},
  ): NatsSubscription {
    let subscription: Subscription | undefined;
    let unsubscribed = false;
    const ready = this.connection.established.then(async (nc) => {
      if (unsubscribed) return;
      subscription = nc.subscribe(subject, {
        ...(options.queue ? { queue: options.queue } : {}),
        // Requests are answered concurrently: one slow request must not hold up the others.
        callback: (error, m) => {
          if (error) return;
          void (async () => {
            let answer: unknown;
            try {
              answer = await handler(m.json());
            } catch (failure) {
              this.logger.error({ err: failure, subject: m.subject }, 'a request handler failed');
              return;
            }
            try {
              m.respond(new TextEncoder().encode(JSON.stringify(answer ?? null)));
            } catch (failure) {
              // The connection closed or is draining: the asker times out; this process must not go down.
              this.logger.warn({ err: failure, subject: m.subject }, 'a request could not be answered');
            }
          })();
        },
      });
      await nc.flush();
    });
    ready.catch(() => undefined);
    return {
      ready,
      unsubscribe: async () => {
        unsubscribed = true;
        subscription?.unsubscribe();
      },
    };
  }

  ensureEventStream(nc: NatsConnection): Promise<void> {
    this.eventStream ??= ensureEventStream(nc).catch((error: unknown) => {
      this.eventStream = undefined;
      throw error;
    });
    return this.eventStream;
  }

  private sendOutbox() {
    this.outboxDue = undefined;
    const batch = this.outbox;
    this.outbox = [];
    for (const message of batch) {
      try {
        const h = headers();
        h.set(MESSAGE_ID_HEADER, message.id);
        message.nc.publish(message.subject, message.payload, { headers: h });
      } catch (error) {
        // Closed or draining since it was published: a live message (never an event) is lost, as if sent a moment later.
        this.logger.warn({ err: error, subject: message.subject }, 'a message could not be sent');
      }
    }
  }

  /** Stops the durable subscriptions, lets core subscriptions finish what they hold, then disconnects. */
  async close(): Promise<void> {
    if (this.outboxDue) {
      clearImmediate(this.outboxDue);
      this.sendOutbox();
    }
    await Promise.all([...this.durables].map((d) => d.unsubscribe()));
    await this.connection.close();
  }
}

/**
 * One subscription's messages, handed to its handler one at a time, in arrival order; repeats of an id are dropped.
 * Nothing escapes it: it runs inside the client's reader, which stops reading the connection (every subscription of
 * the node) on an error, and any client on the bus can send a message this client cannot parse.
 */
class Inbox {
  private readonly seen = new RecentIds(10_000, LIVE_REPEAT_WINDOW_MS);
  /** Messages that came while the handler was still at work on an earlier one; undefined while it is idle. */
  private waiting: Msg[] | undefined;

  constructor(
    private readonly handler: Handler,
    private readonly logger: Logger,
  ) {}

  take(m: Msg): void {
    if (this.waiting) {
      this.waiting.push(m);
      return;
    }
    const working = this.handle(m);
    if (!working) return;
    this.waiting = [];
    void working.then(() => this.drain());
  }

  private async drain(): Promise<void> {
    for (let next = this.waiting!.shift(); next; next = this.waiting!.shift()) await this.handle(next);
    this.waiting = undefined;
  }

  /** Hands one message to the handler: a promise only while the handler's work goes on. Never throws or rejects. */
  private handle(m: Msg): Promise<void> | undefined {
    let id: string | undefined;
    let data: unknown;
    try {
      // The client parses headers when first read, and throws on a malformed one.
      id = m.headers?.get(MESSAGE_ID_HEADER);
      if (!id || this.seen.has(id)) {
        this.log('debug', { subject: m.subject, id }, 'a repeated message (or one without an id) dropped');
        return undefined;
      }
      this.seen.remember(id);
      data = m.json();
    } catch (error) {
      this.log('error', { err: error, subject: m.subject, id }, 'a message that cannot be read; dropped');
      return undefined;
    }
    const failed = (error: unknown) =>
      this.log('error', { err: error, subject: m.subject, id }, 'a message handler failed');
    try {
      const working = this.handler({ subject: m.subject, id, data });
      return working instanceof Promise ? working.catch(failed) : undefined;
    } catch (error) {
      failed(error);
      return undefined;
    }
  }

  private log(level: 'debug' | 'error', fields: object, message: string): void {
    try {
      this.logger[level](fields, message);
    } catch {
      // A value the logger cannot serialise: the message is dropped either way.
    }
  }
}
