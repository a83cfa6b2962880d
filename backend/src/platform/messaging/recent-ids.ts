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
  /** Each id held, and its place in the order they came (counted from the first ever). */
  private readonly places = new Map<string, number>();
  /** Ids in the order they came and when each may be forgotten, from `head` on; `first` is the place of index 0. */
  private order: string[] = [];
  private until: number[] = [];
  private head = 0;
  private first = 0;

  /**
   * `capacity`: the most ids kept. `keepMs`: how long an id is kept at most (none: until `capacity` pushes it out).
   * A subscription that lives as long as a page (a user's own subjects) takes a time window: counted alone, a chatty
   * call would have each of its subscriptions hold `capacity` ids for hours, most of a megabyte. Time is the
   * monotonic clock's: a wall clock set forward would forget every id at once.
   */
  constructor(
    private readonly capacity = 10_000,
    private readonly keepMs = Infinity,
    private readonly now: () => number = () => performance.now(),
  ) {}

  has(id: string): boolean {
    return this.places.has(id);
  }

  /** A handler that failed did not handle it: let its redelivery through. */
  forget(id: string): void {
    this.places.delete(id); // its old place in `order` is passed over when the oldest are forgotten
  }

  remember(id: string): void {
    if (this.places.has(id)) return;
    const now = this.now();
    this.places.set(id, this.first + this.order.length);
    this.order.push(id);
    this.until.push(now + this.keepMs);
    // The oldest first, each once: constant time per id remembered, however many are held.
    while (this.head < this.order.length) {
      const oldest = this.order[this.head]!;
      const current = this.places.get(oldest) === this.first + this.head;
      if (current && this.places.size <= this.capacity && this.until[this.head]! > now) break;
      if (current) this.places.delete(oldest);
      this.head++;
    }
    if (this.head > 1_024 && this.head * 2 > this.order.length) {
      this.order = this.order.slice(this.head);
      this.until = this.until.slice(this.head);
      this.first += this.head;
      this.head = 0;
    }
  }

  /** How many ids it holds now. */
  get size(): number {
    return this.places.size;
  }
}
