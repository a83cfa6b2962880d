/**
 * How long a live subscription (not a durable one) remembers an id. Its repeats come soon: a publisher's retry after a
 * lost ack (seconds), a push made again from an event NATS redelivered after its ack wait (10 s). A push repeated much
 * later, after a long outage, is still dropped by `Realtime`'s own window.
 */
export const LIVE_REPEAT_WINDOW_MS = 120_000;

/**
 * The ids a subscriber has handled lately. Delivery is at least once (a publisher retries after a lost ack,
 * NATS redelivers after a lost ack), so each subscriber drops a repeat; a bounded window keeps memory flat.
 */
export class RecentIds {
  /** Each id and when it may be forgotten. A Map iterates in insertion order, so its first entry is the oldest. */
  private readonly ids = new Map<string, number>();

  /**
   * `capacity`: the most ids kept. `keepMs`: how long an id is kept at most (none: until `capacity` pushes it out).
   * A subscription that lives as long as a page (a user's own subjects) takes a time window: counted alone, a chatty
   * call would have each of its subscriptions hold `capacity` ids for hours, most of a megabyte.
   */
  constructor(
    private readonly capacity = 10_000,
    private readonly keepMs = Infinity,
    private readonly now: () => number = Date.now,
  ) {}

  has(id: string): boolean {
    return this.ids.has(id);
  }

  /** A handler that failed did not handle it: let its redelivery through. */
  forget(id: string): void {
    this.ids.delete(id);
  }

  remember(id: string): void {
    if (this.ids.has(id)) return;
    const now = this.now();
    this.ids.set(id, now + this.keepMs);
    for (const [oldest, until] of this.ids) {
      if (this.ids.size <= this.capacity && until > now) break;
      this.ids.delete(oldest);
    }
  }

  /** How many ids it holds now. */
  get size(): number {
    return this.ids.size;
  }
}
