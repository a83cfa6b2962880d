import {
  accepts,
  INTEREST_WAIT_MS,
  interestsOf,
  type MatchmakerPort,
  openAt,
  type Pair,
  type Seeker,
  sharedInterests,
} from './compatibility.js';

export interface Waiting {
  seeker: Seeker;
  arrivedAt: number;
}

/**
 * The reference matchmaker, and the specification of the pairing rule: the waiting users in arrival order, scanned
 * from the longest-waiting. Someone looking for a partner (an arrival, or a waiting user whose hold just ended) takes
 * the longest-waiting user both accept who shares an interest with them; failing that, if they take anyone (no
 * interests, or their hold is over), the longest-waiting user both accept who takes anyone too. Obviously right and
 * linear; the indexed Matchmaker must pair exactly as this does. It keeps its own record of avoidances (never
 * forgotten), so that the property test does not trust the indexed one's.
 */
export class NaiveMatchmaker implements MatchmakerPort {
  private readonly queue: Waiting[] = [];
  /** `${a}\n${b}` with a < b -> until. */
  private readonly apartUntil = new Map<string, number>();
  /** Holds that ended by this time have been released. */
  private releasedUpTo = -Infinity;

  /**
   * A queue that already holds these users, longest-waiting first, none of whom would pair with another (the queue
   * some other matchmaker was left with), released up to `now`: lets the benchmark start at 100k waiting without
   * 10^10 comparisons.
   */
  static holding(waiting: readonly Waiting[], now = -Infinity): NaiveMatchmaker {
    const naive = new NaiveMatchmaker();
    for (const w of waiting) naive.queue.push(w);
    naive.releasedUpTo = now;
    return naive;
  }

  get size(): number {
    return this.queue.length;
  }

  arrive(seeker: Seeker, now: number): Pair | undefined {
    this.leave(seeker.userId);
    const found = this.partnerOf(seeker, now, now);
    if (found === undefined) {
      this.queue.push({ seeker, arrivedAt: now });
      return undefined;
    }
    const [other] = this.queue.splice(found, 1);
    return pair(other!, { seeker, arrivedAt: now }, now);
  }

  release(now: number): Pair[] {
    const due = this.queue.filter(({ seeker, arrivedAt }) => {
      const endsAt = arrivedAt + INTEREST_WAIT_MS;
      return interestsOf(seeker).length > 0 && endsAt > this.releasedUpTo && endsAt <= now;
    });
    this.releasedUpTo = Math.max(this.releasedUpTo, now);
    const pairs: Pair[] = [];
    for (const released of due) {
      const i = this.queue.indexOf(released);
      if (i < 0) continue; // paired with an earlier one
      this.queue.splice(i, 1);
      const found = this.partnerOf(released.seeker, released.arrivedAt, now);
      if (found === undefined) {
        this.queue.splice(i, 0, released);
        continue;
      }
      const [other] = this.queue.splice(found, 1);
      pairs.push(pair(other!, released, now));
    }
    return pairs;
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

  /** The queue index of the partner of `seeker` (waiting since `since`, not in the queue now), or undefined. */
  private partnerOf(seeker: Seeker, since: number, now: number): number | undefined {
    const both = (other: Seeker) =>
      other.userId !== seeker.userId &&
      accepts(seeker, other) &&
      accepts(other, seeker) &&
      !this.apart(seeker.userId, other.userId, now);
    const sharing = this.queue.findIndex((w) => both(w.seeker) && sharedInterests(seeker, w.seeker).length > 0);
    if (sharing >= 0) return sharing;
    if (!openAt(seeker, since, now)) return undefined;
    const anyone = this.queue.findIndex((w) => both(w.seeker) && openAt(w.seeker, w.arrivedAt, now));
    return anyone >= 0 ? anyone : undefined;
  }

  private apart(a: string, b: string, now: number): boolean {
    const until = this.apartUntil.get(pairKey(a, b));
    return until !== undefined && now < until;
  }
}

function pair(waiting: Waiting, arrival: Waiting, now: number): Pair {
  return {
    waiting: waiting.seeker,
    arrival: arrival.seeker,
    waitedMs: now - waiting.arrivedAt,
    arrivalWaitedMs: now - arrival.arrivedAt,
    sharedInterests: sharedInterests(arrival.seeker, waiting.seeker),
  };
}

function pairKey(a: string, b: string): string {
  return a < b ? `${a}\n${b}` : `${b}\n${a}`;
}
