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
import { LIVE_REPEAT_WINDOW_MS, RecentIds } from './recent-ids.js';
import { subjectMatches } from './subjects.js';

type Handler = (message: BusMessage) => void | Promise<void>;

interface Server {
  subject: string;
  handler: (data: unknown) => Promise<unknown>;
}

interface Subscriber {
  pattern: string;
  handler: Handler;
  /** Members of a group share the messages: a queue group, or the holders of one durable name (as on NATS). */
  group: string | undefined;
  /** Shared by a group's members, so a repeat that lands on another member is dropped too. */
  seen: RecentIds;
  /** A subscriber's handlers run one at a time, in publish order. */
  tail: Promise<void>;
  active: boolean;
}

/**
 * The single-process bus (no NATS_URL): NATS's subject semantics (`*` one token, `>` the rest), queue groups
 * served round robin, and repeats of an id dropped per subscriber. Nothing is stored; instead a publish
 * resolves only once every durable subscriber has handled the message, and fails if one of them failed: the
 * integration-event publisher then keeps its checkpoint before that event and tries again, so a crash cannot
 * lose a reaction (what NATS's acks give a durable consumer).
 */
export class InProcessBus implements MessageBus {
  private readonly subscribers = new Set<Subscriber>();
  // Found by subject at once: most patterns name one subject (a user's, a call's), and a node holds thousands; only
  // the few with `*` or `>` are matched one by one.
  private readonly exact = new Map<string, Set<Subscriber>>();
  private readonly wildcards = new Set<Subscriber>();
  private readonly groups = new Map<string, { turn: number; seen: RecentIds }>();
  private readonly servers = new Set<Server>();
  private serverTurn = 0;
  private closed = false;

  constructor(private readonly logger: Logger) {}

  async publish(message: BusMessage): Promise<void> {
    if (this.closed) throw new Error('the message bus is closed');
    // Subscribers get a JSON copy, as over NATS: never the publisher's object, and nothing JSON can't carry.
    const json = JSON.stringify(message.data ?? null);
    const members = new Map<string, Subscriber[]>();
    const durable: Promise<void>[] = [];
    const exact = this.exact.get(message.subject) ?? [];
    for (const s of [...exact, ...[...this.wildcards].filter((w) => subjectMatches(w.pattern, message.subject))]) {
      if (s.group === undefined) void this.deliver(s, message, json).catch(() => undefined);
      else members.set(s.group, [...(members.get(s.group) ?? []), s]);
    }
    for (const [name, list] of members) {
      const group = this.groups.get(name)!;
      const handled = this.deliver(list[group.turn++ % list.length]!, message, json);
      if (name.startsWith('durable:')) durable.push(handled);
      else void handled.catch(() => undefined);
    }
    await Promise.all(durable);
  }

  subscribe(pattern: string, handler: Handler, options: SubscribeOptions = {}): BusSubscription {
    if (this.closed) throw new Error('the message bus is closed');
    if (options.durable && !isEventSubject(pattern)) {
      throw new Error(`a durable subscription needs an evt.* pattern: ${pattern}`);
    }
    const group = options.durable ? `durable:${options.durable}` : options.queue && `queue:${options.queue}`;
    if (group && !this.groups.has(group)) this.groups.set(group, { turn: 0, seen: new RecentIds() });
    const subscriber: Subscriber = {
      pattern,
      handler,
      group: group || undefined,
      seen: group ? this.groups.get(group)!.seen : new RecentIds(10_000, LIVE_REPEAT_WINDOW_MS),
      tail: Promise.resolve(),
      active: true,
    };
    this.subscribers.add(subscriber);
    const wildcard = /(^|\.)[*>](\.|$)/.test(pattern);
    if (wildcard) this.wildcards.add(subscriber);
    else this.exact.set(pattern, (this.exact.get(pattern) ?? new Set()).add(subscriber));
    return {
      // Not waiting for a running handler: a handler may unsubscribe itself.
      unsubscribe: async () => {
        subscriber.active = false;
        this.subscribers.delete(subscriber);
        this.wildcards.delete(subscriber);
        const same = this.exact.get(pattern);
        same?.delete(subscriber);
        if (same?.size === 0) this.exact.delete(pattern);
      },
    };
  }

  async request(subject: string, data: unknown, options: { timeoutMs?: number } = {}): Promise<unknown> {
    if (this.closed) throw new Error('the message bus is closed');
    const servers = [...this.servers].filter((s) => subjectMatches(s.subject, subject));
    if (servers.length === 0) throw new NoResponderError(subject);
    const server = servers[this.serverTurn++ % servers.length]!;
    const timeoutMs = options.timeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS;
    let timer: ReturnType<typeof setTimeout> | undefined;
    try {
      // JSON both ways, as over NATS: neither side ever holds the other's objects.
      const answer = await Promise.race([
        server.handler(JSON.parse(JSON.stringify(data ?? null))),
        new Promise<never>((_, reject) => {
          timer = setTimeout(() => reject(new RequestTimeoutError(subject, timeoutMs)), timeoutMs);
        }),
      ]);
      return JSON.parse(JSON.stringify(answer ?? null));
    } finally {
      clearTimeout(timer);
    }
  }

  serve(subject: string, handler: (data: unknown) => Promise<unknown>, _options?: { queue?: string }): BusSubscription {
    if (this.closed) throw new Error('the message bus is closed');
    const server: Server = { subject, handler };
    this.servers.add(server);
    return { unsubscribe: async () => void this.servers.delete(server) };
  }

  /** Refuses new messages and waits for the handlers of those already published. */
  async close(): Promise<void> {
    this.closed = true;
    await Promise.all([...this.subscribers].map((s) => s.tail));
    this.subscribers.clear();
    this.exact.clear();
    this.wildcards.clear();
    this.servers.clear();
  }

  /** Queues the message for the subscriber; resolves when handled, rejects if its handler failed. */
  private deliver(subscriber: Subscriber, message: BusMessage, json: string): Promise<void> {
    if (subscriber.seen.has(message.id)) return Promise.resolve();
    subscriber.seen.remember(message.id);
    const copy: BusMessage = { subject: message.subject, id: message.id, data: JSON.parse(json) };
    const handled = subscriber.tail.then(async () => {
      if (!subscriber.active) return;
      try {
        await subscriber.handler(copy);
      } catch (error) {
        subscriber.seen.forget(copy.id);
        this.logger.error({ err: error, subject: copy.subject, id: copy.id }, 'a message handler failed');
        throw error;
      }
    });
    subscriber.tail = handled.catch(() => undefined);
    return handled;
  }
}
