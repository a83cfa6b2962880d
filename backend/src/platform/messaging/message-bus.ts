/**
 * The message bus port: NATS when NATS_URL is set (`nats-bus.ts`), otherwise an in-process bus with the same
 * subject and wildcard semantics (`in-process-bus.ts`). Subjects are dot-separated tokens; a pattern may use
 * `*` (exactly one token) and `>` (one or more tokens, last only), as in NATS.
 */

export interface BusMessage<Data = unknown> {
  subject: string;
  /** A unique id (an integration event's id): publishers may repeat a message, subscribers drop repeats. */
  id: string;
  data: Data;
}

export interface BusSubscription {
  unsubscribe(): Promise<void>;
}

export interface SubscribeOptions {
  /** Members of one queue group share the messages: each goes to one of them. */
  queue?: string;
  /**
   * A durable subscription (NATS: a JetStream durable consumer of that name) also receives what was published
   * while it was away (a restart of NATS or of this process) once it is back. Only for `evt.>` subjects.
   */
  durable?: string;
}

export interface MessageBus {
  /** Resolves once the bus has taken the message (NATS: the server acknowledged it). */
  publish(message: BusMessage): Promise<void>;
  subscribe(
    pattern: string,
    handler: (message: BusMessage) => void | Promise<void>,
    options?: SubscribeOptions,
  ): BusSubscription;
  /**
   * Request/reply on a live (non-`evt.`) subject: the answer of one server of `subject` (NATS: the first to
   * answer; in-process: round robin in a queue group). Rejects with `NoResponderError` when nobody serves it and
   * with a timeout error after `timeoutMs` (default 5 s).
   */
  request(subject: string, data: unknown, options?: { timeoutMs?: number }): Promise<unknown>;
  /** Answers requests on `subject`; handlers run concurrently. A queue group shares the requests. */
  serve(
    subject: string,
    handler: (data: unknown) => Promise<unknown>,
    options?: { queue?: string },
  ): BusSubscription & { ready?: Promise<void> };
  close(): Promise<void>;
}

export const DEFAULT_REQUEST_TIMEOUT_MS = 5_000;

export class NoResponderError extends Error {
  constructor(subject: string) {
    super(`nobody answers ${subject}`);
    this.name = 'NoResponderError';
  }
}

export class RequestTimeoutError extends Error {
  constructor(subject: string, ms: number) {
    super(`no answer on ${subject} within ${ms} ms`);
    this.name = 'RequestTimeoutError';
  }
}
