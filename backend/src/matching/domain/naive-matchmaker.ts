import { accepts, type MatchmakerPort, type Pair, type Seeker } from './compatibility.js';

export interface Waiting {
  seeker: Seeker;
  arrivedAt: number;
}

/**
 * The reference matchmaker: the waiting users in arrival order, scanned from the longest-waiting for the
 * first one both accept. Obviously right and linear; the indexed Matchmaker must pair exactly as this does. It keeps
 * its own record of avoidances (never forgotten), so that the property test does not trust the indexed one's.
 */
export class NaiveMatchmaker implements MatchmakerPort {
  private readonly queue: Waiting[] = [];
  /** `${a}\n${b}` with a < b -> until. */
  private readonly apartUntil = new Map<string, number>();

  /**
   * A queue that already holds these users, longest-waiting first, none of whom would pair with another (the queue
   * some other matchmaker was left with): lets the benchmark start at 100k waiting without 10^10 comparisons.
   */
  static holding(waiting: readonly Waiting[]): NaiveMatchmaker {
    const naive = new NaiveMatchmaker();
    for (const w of waiting) naive.queue.push(w);
    return naive;
  }

  get size(): number {
    return this.queue.length;
  }

  arrive(seeker: Seeker, now: number): Pair | undefined {
    this.leave(seeker.userId);
    for (let i = 0; i < this.queue.length; i++) {
      const { seeker: other, arrivedAt } = this.queue[i]!;
      if (
        other.userId !== seeker.userId &&
        accepts(seeker, other) &&
        accepts(other, seeker) &&
        !this.apart(seeker.userId, other.userId, now)
      ) {
        this.queue.splice(i, 1);
        return { waiting: other, arrival: seeker, waitedMs: now - arrivedAt };
      }
    }
    this.queue.push({ seeker, arrivedAt: now });
    return undefined;
  }

  leave(userId: string): boolean {
    const i = this.queue.findIndex((waiting) => waiting.seeker.userId === userId);
    if (i < 0) return false;
    this.queue.splice(i, 1);
    return true;
  }

  avoid(a: string, b: string, until: number): void {
    const key = pairKey(a, b);
    this.apartUntil.set(key, Math.max(until, this.apartUntil.get(key) ?? -Infinity));
  }

  isWaiting(userId: string): boolean {
    return this.queue.some((waiting) => waiting.seeker.userId === userId);
  }

  private apart(a: string, b: string, now: number): boolean {
    const until = this.apartUntil.get(pairKey(a, b));
    return until !== undefined && now < until;
  }
}

function pairKey(a: string, b: string): string {
  return a < b ? `${a}\n${b}` : `${b}\n${a}`;
}
