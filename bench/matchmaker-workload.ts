/**
 * The matchmaker benchmark's crowd and traffic, seeded, so that every run (and both implementations in a run) sees
 * the same people in the same order.
 */
import type { MatchmakerPort, Pair, Seeker } from '@serendip/backend/matching/domain/matchmaker.js';
import { Matchmaker } from '@serendip/backend/matching/domain/matchmaker.js';
import type { Waiting } from '@serendip/backend/matching/domain/naive-matchmaker.js';
import { SKIP_COOLDOWN_MS } from '@serendip/proto';

/** A small seeded generator (mulberry32): the same seed gives the same crowd on every run. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Country codes ranked by how many users they bring; draws follow Zipf's law (rank r has weight 1/r). */
export const COUNTRIES = (
  'US IN BR DE GB FR TR MX ID PH IT ES PL RU CA AU NL AR CO EG VN TH NG PK SA ' +
  'UA MA RO SE BE CL PE MY PT CZ GR HU ZA KE AT CH IL DK FI NO IE NZ SG DZ'
).split(' ');

export function zipfPicker(items: readonly string[], random: () => number): () => string {
  const total = items.reduce((sum, _, rank) => sum + 1 / (rank + 1), 0);
  let sum = 0;
  const cumulative = items.map((_, rank) => (sum += 1 / (rank + 1) / total));
  return () => {
    const r = random();
    const index = cumulative.findIndex((c) => r <= c);
    return items[index < 0 ? items.length - 1 : index]!;
  };
}

/** Interests ranked by how many users choose them (`i1` the most): draws follow Zipf's law, like countries. */
export const INTEREST_TAGS = Array.from({ length: 200 }, (_, rank) => `i${rank + 1}`);

/** With interests on: this share of the crowd chooses 1 to 3 of INTEREST_TAGS. */
export const WITH_INTERESTS = 0.3;

/**
 * A crowd like the ones random video chats report: 70 % men, most of them wanting women; women wanting men or
 * anyone; half with a country filter (usually their own); ages 18-70, skewed young, and ranges around their own age
 * (a third take anyone 18+); 2 % with no known country. User ids are `${prefix}${n}`. With `interests`, 30 % also
 * choose 1 to 3 interests (the others' draws are unchanged: the same crowd, some of it with interests).
 */
export function seekerFactory(seed: number, prefix = 'u', interests = false): () => Seeker {
  const random = seededRandom(seed);
  const country = zipfPicker(COUNTRIES, random);
  const tagRandom = seededRandom(seed ^ 0x5eed);
  const tag = zipfPicker(INTEREST_TAGS, tagRandom);
  const tagsOf = (): string[] | undefined => {
    if (!interests || tagRandom() >= WITH_INTERESTS) return undefined;
    const count = 1 + Math.floor(tagRandom() * 3);
    const tags = new Set<string>();
    while (tags.size < count) tags.add(tag());
    return [...tags];
  };
  const pick = <T>(...choices: [number, T][]): T => {
    let r = random();
    for (const [share, value] of choices) if ((r -= share) < 0) return value;
    return choices[choices.length - 1]![1];
  };
  let n = 0;
  return () => {
    const gender = random() < 0.7 ? 'male' : 'female';
    const wantsGender =
      gender === 'male'
        ? pick<Seeker['filters']['gender']>([0.8, 'female'], [0.1, null], [0.1, 'male'])
        : pick<Seeker['filters']['gender']>([0.6, 'male'], [0.32, null], [0.08, 'female']);
    const own = random() < 0.02 ? null : country();
    const age = 18 + Math.floor(random() ** 1.6 * 53);
    const min = Math.max(18, age - 5 - Math.floor(random() * 10));
    const max = random() < 0.3 ? 110 : Math.min(110, min + 8 + Math.floor(random() * 30));
    const wantsCountry = random() < 0.5 ? (own !== null && random() < 0.7 ? own : country()) : null;
    const tags = tagsOf();
    return {
      userId: `${prefix}${n++}`,
      gender,
      age,
      country: own,
      filters: {
        gender: wantsGender,
        country: wantsCountry,
        ageRange: [min, max],
        ...(tags ? { interests: tags } : {}),
      },
    };
  };
}

/**
 * A queue of `size` waiting users as a busy service has it: fresh arrivals until that many are left unpaired (pairs
 * made on the way go). The users come back longest-waiting first; none of them would pair with another.
 */
export function waitingQueue(size: number, seed = 42, interests = false): { waiting: Waiting[]; now: number } {
  const matchmaker = new Matchmaker();
  const next = seekerFactory(seed, 'w', interests);
  const waiting = new Map<string, Waiting>();
  let now = 0;
  while (matchmaker.size < size) {
    // Holds for shared interests that ended meanwhile, as the leader's timers end them.
    for (const released of matchmaker.release(now + 1)) {
      waiting.delete(released.waiting.userId);
      waiting.delete(released.arrival.userId);
    }
    const seeker = next();
    const pair = matchmaker.arrive(seeker, (now += 1));
    if (pair) waiting.delete(pair.waiting.userId);
    else waiting.set(seeker.userId, { seeker, arrivedAt: now });
  }
  return { waiting: [...waiting.values()], now };
}

/** Share of arrivals who are back from a call that just ended, when anyone is. */
const RETURNING = 0.3;
/** Share of calls ended by a skip: the two are kept apart for the cooldown (DESIGN.md "Matching"). */
const SKIPPED = 0.5;
/** People back from a call who have not arrived yet; beyond this many, the longest-gone went home. */
const RETURNING_AT_MOST = 1_000;

/**
 * The arrivals after the queue is full, and what happens around them that nobody times: a pair's two users have
 * their call, half the calls end in a skip, and both come back soon; when the queue grows past its size, a random
 * waiting user gives up. So the queue stays at its size, and the matchmaker meets the avoidances it would in
 * production. Deterministic given the same answers: two matchmakers that agree see the same traffic.
 */
export class Traffic {
  private readonly random: () => number;
  private readonly fresh: () => Seeker;
  private readonly back: Seeker[] = [];
  /** Who is waiting, for a random one to give up in O(1): ids, and each id's index. */
  private readonly waitingIds: string[] = [];
  private readonly indexOf = new Map<string, number>();

  constructor(
    seed: number,
    private readonly size: number,
    waiting: readonly Waiting[],
    public now: number,
    private readonly stepMs = 50,
    interests = false,
  ) {
    this.random = seededRandom(seed);
    this.fresh = seekerFactory(seed, 'a', interests);
    for (const { seeker } of waiting) this.waits(seeker.userId);
  }

  /** The next arrival; the clock moves on by one step. */
  next(): Seeker {
    this.now += this.stepMs;
    if (this.back.length > 0 && this.random() < RETURNING) return this.back.shift()!;
    return this.fresh();
  }

  /** What follows the pairs made as holds for shared interests ended (both had been waiting). */
  released(matchmaker: MatchmakerPort, pairs: readonly Pair[]): void {
    for (const pair of pairs) {
      this.stopsWaiting(pair.arrival.userId);
      this.called(matchmaker, pair);
    }
  }

  /** What follows the matchmaker's answer to `arrival`. */
  settle(matchmaker: MatchmakerPort, arrival: Seeker, pair: Pair | undefined): void {
    if (pair) this.called(matchmaker, pair);
    else this.waits(arrival.userId);
    while (matchmaker.size > this.size) {
      const gone = this.waitingIds[Math.floor(this.random() * this.waitingIds.length)]!;
      this.stopsWaiting(gone);
      matchmaker.leave(gone);
    }
  }

  /** The two have their call; half end it with a skip; both come back soon. */
  private called(matchmaker: MatchmakerPort, pair: Pair) {
    this.stopsWaiting(pair.waiting.userId);
    if (this.random() < SKIPPED) {
      matchmaker.avoid(pair.waiting.userId, pair.arrival.userId, this.now + SKIP_COOLDOWN_MS);
    }
    this.back.push(pair.waiting, pair.arrival);
    if (this.back.length > RETURNING_AT_MOST) this.back.splice(0, this.back.length - RETURNING_AT_MOST);
  }

  private waits(userId: string) {
    if (this.indexOf.has(userId)) return;
    this.indexOf.set(userId, this.waitingIds.push(userId) - 1);
  }

  private stopsWaiting(userId: string) {
    const index = this.indexOf.get(userId);
    if (index === undefined) return;
    const last = this.waitingIds.pop()!;
    if (last !== userId) {
      this.waitingIds[index] = last;
      this.indexOf.set(last, index);
    }
    this.indexOf.delete(userId);
  }
}
