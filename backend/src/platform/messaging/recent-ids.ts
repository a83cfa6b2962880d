/**
 * The ids a subscriber has handled lately. Delivery is at least once (a publisher retries after a lost ack,
 * NATS redelivers after a lost ack), so each subscriber drops a repeat; a bounded window keeps memory flat.
 */
export class RecentIds {
  // A Set iterates in insertion order, so its first entry is the oldest.
  private readonly ids = new Set<string>();

  constructor(private readonly capacity = 10_000) {}

  has(id: string): boolean {
    return this.ids.has(id);
  }

  /** A handler that failed did not handle it: let its redelivery through. */
  forget(id: string): void {
    this.ids.delete(id);
  }

  remember(id: string): void {
    if (this.ids.has(id)) return;
    this.ids.add(id);
    if (this.ids.size > this.capacity) this.ids.delete(this.ids.values().next().value!);
  }
}
