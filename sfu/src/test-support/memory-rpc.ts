import type { SfuReply, SfuRpcPort } from '@serendip/proto';

type Handler = (request: unknown) => Promise<unknown>;

/**
 * The bus in memory, for tests: requests and publications go through JSON as on NATS, so nothing that would not
 * survive the wire slips through. Queue groups do not matter with one node.
 */
export class MemoryRpc implements SfuRpcPort {
  readonly published: { subject: string; data: unknown }[] = [];
  private readonly handlers = new Map<string, Handler>();
  private readonly waiters = new Set<() => void>();

  serve(subject: string, handler: Handler): { close(): Promise<void> } {
    this.handlers.set(subject, handler);
    return { close: async () => void this.handlers.delete(subject) };
  }

  async publish(subject: string, data: unknown): Promise<void> {
    this.published.push({ subject, data: wire(data) });
    for (const wake of this.waiters) wake();
  }

  serves(subject: string): boolean {
    return this.handlers.has(subject);
  }

  /**
   * Routed to the subject's handler when sent, handled a moment later, as over NATS: a node that leaves a queue
   * group still answers what was already on its way to it (its subscription drains).
   */
  async request<T = unknown>(subject: string, request: unknown): Promise<SfuReply<T>> {
    const handler = this.handlers.get(subject);
    if (!handler) throw new Error(`nobody serves ${subject}`);
    await new Promise((resolve) => setImmediate(resolve));
    return wire(await handler(wire(request))) as SfuReply<T>;
  }

  /** The first publication on `subject` that `matches`, waiting for it up to `timeoutMs`. */
  nextPublished(
    subject: string,
    matches: (data: unknown) => boolean = () => true,
    timeoutMs = 10_000,
  ): Promise<unknown> {
    const find = () => this.published.find((entry) => entry.subject === subject && matches(entry.data));
    return new Promise((resolve, reject) => {
      const check = () => {
        const hit = find();
        if (!hit) return;
        cleanup();
        resolve(hit.data);
      };
      const timer = setTimeout(() => {
        cleanup();
        reject(new Error(`nothing published on ${subject} within ${timeoutMs} ms`));
      }, timeoutMs);
      const cleanup = () => {
        clearTimeout(timer);
        this.waiters.delete(check);
      };
      this.waiters.add(check);
      check();
    });
  }
}

function wire(value: unknown): unknown {
  return value === undefined ? undefined : JSON.parse(JSON.stringify(value));
}
