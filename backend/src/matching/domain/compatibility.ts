import { INTEREST_WAIT_MS, type MatchFilters } from '@serendip/proto';

export { INTEREST_WAIT_MS };

/** A user as the matchmaker sees them: their real profile (from the server) and what they are looking for. */
export interface Seeker {
  userId: string;
  /** The seeker's own real profile, from the server. */
  gender: 'male' | 'female';
  age: number;
  /** ISO 3166-1 alpha-2, or null when their location is unknown. */
  country: string | null;
  /** What they are looking for. */
  filters: MatchFilters;
}

export interface Pair {
  /** The one who had been waiting (the longest-waiting compatible user). */
  waiting: Seeker;
  /** The one who just arrived, or whose hold for shared interests just ended (release). */
  arrival: Seeker;
  /** How long `waiting` waited, in ms (now - their arrival time). */
  waitedMs: number;
  /** How long `arrival` waited: 0 for an arrival, the hold and more for a release. */
  arrivalWaitedMs: number;
  /** The interests both chose, in the order `arrival` listed them; empty when the pair shares none. */
  sharedInterests: string[];
}

/** Times (`now`, `until`) are ms timestamps passed in by the caller; they are expected not to go back. */
export interface MatchmakerPort {
  /**
   * Queues the seeker, or pairs them at once with the longest-waiting user both accept. A user already waiting is
   * replaced (their new entry waits from now). Returns the pair (both are then out of the queue) or undefined.
   */
  arrive(seeker: Seeker, now: number): Pair | undefined;
  /**
   * Ends the hold of every waiting user whose INTEREST_WAIT_MS ran out by `now` and was not released yet, in the order
   * their holds ended: each is paired as an arrival would be (a partner sharing an interest first, then anyone
   * compatible whose own hold is over), or stays waiting, open to anyone. The caller calls it when a hold ends.
   */
  release(now: number): Pair[];
  /** Takes the user out of the queue; false if they were not waiting. */
  leave(userId: string): boolean;
  /** a and b are never paired until `until` (ms timestamp; Infinity = for good, e.g. a report or block). Symmetric. */
  avoid(a: string, b: string, until: number): void;
  isWaiting(userId: string): boolean;
  readonly size: number;
}

/** Does `a` accept `b`? Gender and country preferences (null: any) and the age range, inclusive. */
export function accepts(a: Seeker, b: Seeker): boolean {
  const { gender, country, ageRange } = a.filters;
  if (gender !== null && gender !== b.gender) return false;
  // Someone whose country is unknown only meets people who do not filter by country.
  if (country !== null && country !== b.country) return false;
  return b.age >= ageRange[0] && b.age <= ageRange[1];
}

/** The seeker's interests (the gateway trimmed, lower-cased and de-duplicated them). */
export function interestsOf(s: Seeker): readonly string[] {
  return s.filters.interests ?? [];
}

/** The interests `a` and `b` both chose, in `a`'s order. */
export function sharedInterests(a: Seeker, b: Seeker): string[] {
  const theirs = interestsOf(b);
  if (theirs.length === 0) return [];
  return interestsOf(a).filter((tag) => theirs.includes(tag));
}

/**
 * Whether a user waiting since `since` takes anyone compatible at `now`: one without interests always does; one with
 * interests only once held for INTEREST_WAIT_MS (until then, only partners sharing one).
 */
export function openAt(s: Seeker, since: number, now: number): boolean {
  return interestsOf(s).length === 0 || now - since >= INTEREST_WAIT_MS;
}

interface Ending {
  until: number;
  a: string;
  b: string;
}

/**
 * Pairs of users kept apart until a time (a skip for 10 minutes; a report or block for good). Symmetric;
 * a second avoidance of the same pair never shortens the first. Ended avoidances are forgotten in order of their
 * end (a min-heap), so a day of skips does not pile up in memory.
 */
export class Avoidances {
  private readonly until = new Map<string, Map<string, number>>();
  private readonly endings: Ending[] = [];

  avoid(a: string, b: string, until: number): void {
    if (a === b) return;
    const longest = Math.max(until, this.until.get(a)?.get(b) ?? -Infinity);
    this.set(a, b, longest);
    this.set(b, a, longest);
    if (longest === until && Number.isFinite(until)) this.push({ until, a, b });
  }

  apart(a: string, b: string, now: number): boolean {
    const until = this.until.get(a)?.get(b);
    return until !== undefined && now < until;
  }

  /** Forgets every avoidance that has ended by `now` (an avoidance lasts while now < until). */
  forgetEnded(now: number): void {
    const endings = this.endings;
    while (endings.length > 0 && endings[0]!.until <= now) {
      const { a, b } = this.pop();
      // A later avoid() of the same pair may have extended it: its own ending is still in the heap.
      if ((this.until.get(a)?.get(b) ?? Infinity) > now) continue;
      this.unset(a, b);
      this.unset(b, a);
    }
  }

  /** How many one-way avoidances are remembered (both directions of a pair count). */
  get remembered(): number {
    let count = 0;
    for (const mine of this.until.values()) count += mine.size;
    return count;
  }

  private set(a: string, b: string, until: number) {
    let mine = this.until.get(a);
    if (!mine) this.until.set(a, (mine = new Map()));
    mine.set(b, until);
  }

  private unset(a: string, b: string) {
    const mine = this.until.get(a);
    if (!mine) return;
    mine.delete(b);
    if (mine.size === 0) this.until.delete(a);
  }

  private push(ending: Ending) {
    const heap = this.endings;
    let i = heap.push(ending) - 1;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (heap[parent]!.until <= ending.until) break;
      heap[i] = heap[parent]!;
      i = parent;
    }
    heap[i] = ending;
  }

  private pop(): Ending {
    const heap = this.endings;
    const top = heap[0]!;
    const last = heap.pop()!;
    if (heap.length === 0) return top;
    let i = 0;
    for (;;) {
      let child = 2 * i + 1;
      if (child >= heap.length) break;
      if (child + 1 < heap.length && heap[child + 1]!.until < heap[child]!.until) child++;
      if (heap[child]!.until >= last.until) break;
      heap[i] = heap[child]!;
      i = child;
    }
    heap[i] = last;
    return top;
  }
}
