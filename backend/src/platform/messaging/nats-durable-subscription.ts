import {
  AckPolicy,
  ConsumerEvents,
  type ConsumerMessages,
  DeliverPolicy,
  type JsMsg,
  type NatsConnection,
  nanos,
} from 'nats';
import type { Logger } from 'pino';
import { abortable, backoffDelay, sleep } from '../shared/backoff.js';
import type { BusMessage, BusSubscription } from './message-bus.js';
import { EVENT_STREAM, isNotFound, MESSAGE_ID_HEADER } from './nats-event-stream.js';
import { RecentIds } from './recent-ids.js';

/** What a durable subscription needs from the bus that owns the connection. */
export interface NatsLink {
  /** The connection, once it is up (rejects after a bounded wait). */
  connected(): Promise<NatsConnection>;
  ensureEventStream(nc: NatsConnection): Promise<void>;
  logger: Logger;
}

const ACK_WAIT_MS = 10_000;
const ACK_CONFIRM_TIMEOUT_MS = 2_000;
const ACK = new TextEncoder().encode('+ACK');

/**
 * A JetStream durable pull consumer: it outlives this process and NATS restarts, and every holder of the
 * same durable name shares its messages (so a durable is also a queue group).
 *
 * NOTE: one message in flight (max_ack_pending 1): the next is delivered only after this one is acked, so
 * handlers see messages in stream order even after a NATS restart or a failed handler. A message is acked
 * only after its handler succeeded; a failed one is redelivered with backoff.
 */
export class DurableSubscription implements BusSubscription {
  /** Resolves once the consumer exists and messages are being pulled. */
  readonly ready: Promise<void>;
  private markReady!: () => void;
  private readonly stopping = new AbortController();
  private readonly seen = new RecentIds();
  private messages: ConsumerMessages | undefined;
  private readonly running: Promise<void>;

  constructor(
    private readonly link: NatsLink,
    private readonly pattern: string,
    private readonly durable: string,
    private readonly handler: (message: BusMessage) => void | Promise<void>,
  ) {
    this.ready = new Promise((resolve) => (this.markReady = resolve));
    this.running = this.run();
  }

  async unsubscribe(): Promise<void> {
    this.stopping.abort();
    await this.messages?.close();
    await this.running;
  }

  private get stopped(): boolean {
    return this.stopping.signal.aborted;
  }

  private async run(): Promise<void> {
    for (let attempt = 0; !this.stopped; attempt++) {
      try {
        const nc = await abortable(this.link.connected(), this.stopping.signal);
        await this.createConsumer(nc);
        const consumer = await nc.jetstream().consumers.get(EVENT_STREAM, this.durable);
        // Short pulls (heartbeats every 2.5 s) notice a vanished consumer or stream within seconds, and then end
        // this read (rather than the client waiting for them to come back) so the loop below makes them again.
        this.messages = await consumer.consume({ max_messages: 64, expires: 5_000, abort_on_missing_resource: true });
        if (this.stopped) await this.messages.close();
        void this.restartWhenMissing(this.messages);
        this.markReady();
        attempt = 0;
        for await (const m of this.messages) await this.handle(nc, m);
      } catch (error) {
        if (this.stopped) return;
        this.link.logger.warn({ err: error, durable: this.durable }, 'durable subscription interrupted; retrying');
      }
      await sleep(backoffDelay(attempt), this.stopping.signal);
    }
  }

  private async createConsumer(nc: NatsConnection): Promise<void> {
    await this.link.ensureEventStream(nc);
    const jsm = await nc.jetstreamManager();
    const existing = await jsm.consumers.info(EVENT_STREAM, this.durable).catch((error: unknown) => {
      if (isNotFound(error)) return undefined;
      throw error;
    });
    // NATS moves a durable to the newest subscriber's subjects: fine for a deploy, a bug if two differ.
    const before = existing?.config.filter_subject;
    if (before && before !== this.pattern) {
      this.link.logger.warn({ durable: this.durable, from: before, to: this.pattern }, 'durable changes its subjects');
    }
    await jsm.consumers.add(EVENT_STREAM, {
      durable_name: this.durable,
      filter_subject: this.pattern,
      // A new durable reads what the stream still holds: it must not miss events published before it existed.
      deliver_policy: DeliverPolicy.All,
      ack_policy: AckPolicy.Explicit,
      ack_wait: nanos(ACK_WAIT_MS),
      max_ack_pending: 1,
      max_deliver: -1,
    });
  }

  /**
   * A server that lost its storage (a fresh node) has neither stream nor consumer; the client would only look
   * again after 30 s, so end this read and let `run` make both again at once.
   */
  private async restartWhenMissing(messages: ConsumerMessages): Promise<void> {
    for await (const status of await messages.status()) {
      if (status.type !== ConsumerEvents.ConsumerNotFound && status.type !== ConsumerEvents.StreamNotFound) continue;
      this.link.logger.warn({ durable: this.durable, status: status.type }, 'durable consumer gone; making it again');
      await messages.close();
      return;
    }
  }

  private async handle(nc: NatsConnection, m: JsMsg): Promise<void> {
    let id: string | undefined;
    try {
      id = m.headers?.get(MESSAGE_ID_HEADER); // parsed when first read: a malformed header throws
    } catch (error) {
      // Redelivered, it would fail again and hold up every event after it (one unacknowledged message at a time).
      this.link.logger.error({ err: error, subject: m.subject, durable: this.durable }, 'unreadable headers; dropped');
      return m.term();
    }
    if (!id) {
      this.link.logger.error({ subject: m.subject, durable: this.durable }, 'a message without an id; dropped');
      return m.term();
    }
    if (!this.seen.has(id)) {
      let data: unknown;
      try {
        data = m.json();
      } catch {
        this.link.logger.error({ subject: m.subject, id }, 'a message that is not JSON; dropped');
        return m.term();
      }
      // A slow handler keeps the message its own: without this NATS would redeliver it after ack_wait.
      const keepAlive = setInterval(() => m.working(), ACK_WAIT_MS / 3);
      try {
        await this.handler({ subject: m.subject, id, data });
      } catch (error) {
        this.link.logger.error({ err: error, subject: m.subject, id }, 'a message handler failed; NATS redelivers');
        return m.nak(backoffDelay(m.info.redeliveryCount - 1, 200, 5_000));
      } finally {
        clearInterval(keepAlive);
      }
      this.seen.remember(id);
    } else {
      this.link.logger.debug({ subject: m.subject, id }, 'a repeated message dropped');
    }
    await this.confirmAck(nc, m);
  }

  /**
   * With one message in flight, a lost ack (NATS going down) would hold the consumer until ack_wait ends,
   * so the ack is confirmed by the server and sent again after a reconnect.
   */
  private async confirmAck(nc: NatsConnection, m: JsMsg): Promise<void> {
    // The typings hide it, but a JetStream delivery's reply subject is its ack subject. Sent by hand (not
    // ackAck) because the client sends an ack only once.
    const ackSubject = (m as JsMsg & { reply: string }).reply;
    for (let attempt = 0; !this.stopped; attempt++) {
      try {
        await nc.request(ackSubject, ACK, { timeout: ACK_CONFIRM_TIMEOUT_MS });
        return;
      } catch {
        await sleep(backoffDelay(attempt, 50, 1_000), this.stopping.signal);
      }
    }
  }
}
