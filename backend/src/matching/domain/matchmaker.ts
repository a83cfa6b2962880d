import {
  accepts,
  Avoidances,
  INTEREST_WAIT_MS,
  interestsOf,
  type MatchmakerPort,
  openAt,
  type Pair,
  type Seeker,
  sharedInterests,
} from './compatibility.js';

export { INTEREST_WAIT_MS, type MatchmakerPort, type Pair, type Seeker } from './compatibility.js';

/** Age bands of this many years, from 18: an arrival visits only the bands its age range touches. */
const BAND_YEARS = 5;
const FIRST_AGE = 18;
const BANDS = Math.ceil((110 - FIRST_AGE + 1) / BAND_YEARS);
const GENDERS = { male: 0, female: 1 } as const;
const ANY_GENDER = 2;
/** The wanted-gender slots of waiting users who accept an arrival of this gender. */
const ACCEPTED_BY = { male: [GENDERS.male, ANY_GENDER], female: [GENDERS.female, ANY_GENDER] } as const;
/** Country slot 0: "any country" in a filter, and the lane of one band's users from every country. */
const ANY_COUNTRY = 0;
const UNKNOWN_COUNTRY = 1;
/** Room for every ISO alpha-2 code (26 x 26) and more; keys stay small integers, which Maps hash fastest. */
const COUNTRY_SLOTS = 1 << 12;

/** A place in one line: lines are intrusive doubly linked lists in arrival order, so leaving is O(1). */
class Place {
  prev: Place | undefined;
  next: Place | undefined;
  constructor(
    readonly entry: Entry,
    readonly line: Line,
  ) {}
}

class Line {
  head: Place | undefined;
  tail: Place | undefined;
  constructor(
    readonly key: number,
    readonly group: Group,
  ) {}
}

class Entry {
  /**
   * In each index it belongs to (every waiting user's, and one per interest): the line of users from the same country
   * and age band, and the line of the same age band from every country (for arrivals who do not filter by country).
   */
  readonly places: Place[] = [];
  /** In the line of users held for shared interests, in the order their holds end (undefined once released). */
  heldPrev: Entry | undefined;
  heldNext: Entry | undefined;
  held = false;
  constructor(
    /** Arrival order: the oldest compatible entry (smallest seq) is the longest-waiting compatible user. */
    readonly seq: number,
    readonly seeker: Seeker,
    readonly arrivedAt: number,
  ) {}
}

/** The users who share gender, wanted gender and wanted country: each of them accepts an arrival alike on those. */
interface Group {
  key: number;
  /** `country slot * BANDS + band` -> line. */
  lines: Map<number, Line>;
  index: Index;
}

/** Waiting users in groups and lines: all of them, or those who chose one interest (`tag`). */
interface Index {
  tag: string | undefined;
  groups: Map<number, Group>;
}

/** Whom a search takes: only partners sharing an interest (from the interests' indexes), or anyone open. */
type Wanted = 'sharing' | 'open';

/**
 * The waiting queue, indexed. Users are grouped by what an arrival can test without looking at anyone:
 * their gender, the gender they want and the country they want; inside a group, lines by own country and age band
 * (and the same bands across all countries). An arrival picks the lines whose users it accepts and who accept it on
 * gender and country, and only the age bands its range touches, then merges the lines oldest first (a min-heap of
 * line heads by arrival order): the first entry both accept and not kept apart is the longest-waiting compatible
 * user. Only entries older than the answer are ever looked at, and only those in the arrival's age bands.
 *
 * Interests: each interest has the same index of the users who chose it, so an arrival with interests merges only
 * the lines of its interests' indexes (a partner sharing one). Users held for shared interests (their first
 * INTEREST_WAIT_MS) are in the main index too, skipped by arrivals without a shared interest; they are few (only
 * the last seconds' arrivals), and `release` takes them in the order their holds end. NaiveMatchmaker is the rule.
 */
export class Matchmaker implements MatchmakerPort {
  private readonly all: Index = { tag: undefined, groups: new Map() };
  private readonly byTag = new Map<string, Index>();
  private readonly byUser = new Map<string, Entry>();
  private readonly countries = new Map<string, number>();
  private readonly avoidances = new Avoidances();
  /** Users still held for shared interests, oldest first (their holds end in this order). */
  private heldHead: Entry | undefined;
  private heldTail: Entry | undefined;
  /** Reused by every arrival's merge, so a decision allocates nothing but its answer. */
  private readonly heap: Place[] = [];
  private nextSeq = 0;

  get size(): number {
    return this.byUser.size;
  }

  arrive(seeker: Seeker, now: number): Pair | undefined {
    // A second tab replaces the first: never the same user twice in the queue, never paired with oneself.
    this.leave(seeker.userId);
    this.avoidances.forgetEnded(now);
    const found = this.partnerOf(seeker, now, now, undefined);
    if (!found) {
      this.add(seeker, now);
      return undefined;
    }
    this.remove(found);
    return pair(found, seeker, now, now);
  }

  release(now: number): Pair[] {
    this.avoidances.forgetEnded(now);
    const pairs: Pair[] = [];
    for (let held = this.heldHead; held && held.arrivedAt + INTEREST_WAIT_MS <= now; held = this.heldHead) {
      this.unhold(held);
      const found = this.partnerOf(held.seeker, held.arrivedAt, now, held);
      if (!found) continue;
      this.remove(found);
      this.remove(held);
      pairs.push(pair(found, held.seeker, held.arrivedAt, now));
    }
    return pairs;
  }

  leave(userId: string): boolean {
    const entry = this.byUser.get(userId);
    if (!entry) return false;
    this.remove(entry);
    return true;
  }

  avoid(a: string, b: string, until: number): void {
    this.avoidances.avoid(a, b, until);
  }

  isWaiting(userId: string): boolean {
    return this.byUser.has(userId);
  }

  /** The partner of `seeker` (waiting since `since`; `self` is their own entry when they are waiting). */
  private partnerOf(seeker: Seeker, since: number, now: number, self: Entry | undefined): Entry | undefined {
    const interests = interestsOf(seeker);
    if (interests.length > 0) {
      const indexes: Index[] = [];
      for (const tag of interests) {
        const index = this.byTag.get(tag);
        if (index) indexes.push(index);
      }
      const sharing = this.oldestCompatible(seeker, indexes, 'sharing', now, self);
      if (sharing) return sharing;
    }
    return openAt(seeker, since, now) ? this.oldestCompatible(seeker, [this.all], 'open', now, self) : undefined;
  }

  private oldestCompatible(
    arrival: Seeker,
    indexes: readonly Index[],
    wanted: Wanted,
    now: number,
    self: Entry | undefined,
  ): Entry | undefined {
    if (indexes.length === 0) return undefined;
    const { gender, country, ageRange } = arrival.filters;
    const lane = country === null ? ANY_COUNTRY : this.countries.get(country);
    if (lane === undefined) return undefined; // nobody from there has ever waited
    // Waiting users who want a country accept only arrivals from it: never one whose country is unknown.
    const ownCountry = arrival.country === null ? undefined : this.countries.get(arrival.country);
    const firstBand = band(ageRange[0]);
    const lastBand = band(ageRange[1]);
    const heap = this.heap;
    heap.length = 0;
    const firstGender = gender === null ? GENDERS.male : GENDERS[gender];
    const lastGender = gender === null ? GENDERS.female : GENDERS[gender];
    for (const index of indexes) {
      for (let g = firstGender; g <= lastGender; g++) {
        for (const wantedGender of ACCEPTED_BY[arrival.gender]) {
          this.collect(index, groupKey(g, wantedGender, ANY_COUNTRY), lane, firstBand, lastBand);
          if (ownCountry !== undefined) {
            this.collect(index, groupKey(g, wantedGender, ownCountry), lane, firstBand, lastBand);
          }
        }
      }
    }
    return this.merge(arrival, wanted, now, self);
  }

  /** Puts the head of each of the group's lines in `lane` and the bands from first to last on the heap. */
  private collect(index: Index, key: number, lane: number, firstBand: number, lastBand: number) {
    const lines = index.groups.get(key)?.lines;
    if (!lines) return;
    for (let b = firstBand; b <= lastBand; b++) {
      const head = lines.get(lane * BANDS + b)?.head;
      if (head) this.heap.push(head);
    }
  }

  /** Walks the collected lines together, oldest entry first; the first compatible one is the answer. */
  private merge(arrival: Seeker, wanted: Wanted, now: number, self: Entry | undefined): Entry | undefined {
    const heap = this.heap;
    for (let i = (heap.length >> 1) - 1; i >= 0; i--) siftDown(heap, i);
    while (heap.length > 0) {
      const place = heap[0]!;
      const entry = place.entry;
      const other = entry.seeker;
      if (
        entry !== self &&
        accepts(arrival, other) &&
        accepts(other, arrival) &&
        (wanted === 'sharing' || openAt(other, entry.arrivedAt, now)) &&
        !this.avoidances.apart(arrival.userId, other.userId, now)
      ) {
        return entry;
      }
      const last = place.next ?? heap.pop()!;
      if (heap.length === 0) break;
      heap[0] = last;
      siftDown(heap, 0);
    }
    return undefined;
  }

  private add(seeker: Seeker, now: number) {
    const { gender, country } = seeker.filters;
    const key = groupKey(
      GENDERS[seeker.gender],
      gender === null ? ANY_GENDER : GENDERS[gender],
      country === null ? ANY_COUNTRY : this.slot(country),
    );
    const own = seeker.country === null ? UNKNOWN_COUNTRY : this.slot(seeker.country);
    const b = band(seeker.age);
    const entry = new Entry(this.nextSeq++, seeker, now);
    const place = (index: Index) => {
      let group = index.groups.get(key);
      if (!group) index.groups.set(key, (group = { key, lines: new Map(), index }));
      entry.places.push(append(entry, lineIn(group, own * BANDS + b)));
      entry.places.push(append(entry, lineIn(group, ANY_COUNTRY * BANDS + b)));
    };
    place(this.all);
    const interests = interestsOf(seeker);
    for (const tag of interests) {
      let index = this.byTag.get(tag);
      if (!index) this.byTag.set(tag, (index = { tag, groups: new Map() }));
      place(index);
    }
    if (interests.length > 0 && !openAt(seeker, now, now)) this.hold(entry);
    this.byUser.set(seeker.userId, entry);
  }

  private remove(entry: Entry) {
    this.byUser.delete(entry.seeker.userId);
    if (entry.held) this.unhold(entry);
    for (const place of entry.places) {
      unlink(place);
      // Empty groups and interests go, so lookups for them miss at once (lines go in unlink).
      const group = place.line.group;
      if (group.lines.size > 0) continue;
      const index = group.index;
      index.groups.delete(group.key);
      if (index.tag !== undefined && index.groups.size === 0) this.byTag.delete(index.tag);
    }
  }

  private hold(entry: Entry) {
    entry.held = true;
    entry.heldPrev = this.heldTail;
    if (this.heldTail) this.heldTail.heldNext = entry;
    else this.heldHead = entry;
    this.heldTail = entry;
  }

  private unhold(entry: Entry) {
    entry.held = false;
    if (entry.heldPrev) entry.heldPrev.heldNext = entry.heldNext;
    else this.heldHead = entry.heldNext;
    if (entry.heldNext) entry.heldNext.heldPrev = entry.heldPrev;
    else this.heldTail = entry.heldPrev;
    entry.heldPrev = entry.heldNext = undefined;
  }

  /** The country's small-integer slot, handed out on first sight (slots 0 and 1 are taken). */
  private slot(country: string): number {
    let slot = this.countries.get(country);
    if (slot === undefined) {
      slot = this.countries.size + 2;
      if (slot >= COUNTRY_SLOTS) throw new Error(`more than ${COUNTRY_SLOTS - 2} countries: '${country}'`);
      this.countries.set(country, slot);
    }
    return slot;
  }
}

function pair(found: Entry, arrival: Seeker, since: number, now: number): Pair {
  return {
    waiting: found.seeker,
    arrival,
    waitedMs: now - found.arrivedAt,
    arrivalWaitedMs: now - since,
    sharedInterests: sharedInterests(arrival, found.seeker),
  };
}

function groupKey(gender: number, wantedGender: number, wantedCountry: number): number {
  return (gender * 3 + wantedGender) * COUNTRY_SLOTS + wantedCountry;
}

/** Clamped, so that an age outside 18..110 still lands in a band that every range covering it visits. */
function band(age: number): number {
  return Math.min(BANDS - 1, Math.max(0, Math.floor((age - FIRST_AGE) / BAND_YEARS)));
}

function lineIn(group: Group, key: number): Line {
  let line = group.lines.get(key);
  if (!line) group.lines.set(key, (line = new Line(key, group)));
  return line;
}

function append(entry: Entry, line: Line): Place {
  const place = new Place(entry, line);
  place.prev = line.tail;
  if (line.tail) line.tail.next = place;
  else line.head = place;
  line.tail = place;
  return place;
}

function unlink(place: Place) {
  const line = place.line;
  if (place.prev) place.prev.next = place.next;
  else line.head = place.next;
  if (place.next) place.next.prev = place.prev;
  else line.tail = place.prev;
  if (!line.head) line.group.lines.delete(line.key);
}

function siftDown(heap: Place[], start: number) {
  const place = heap[start]!;
  const seq = place.entry.seq;
  let i = start;
  for (;;) {
    let child = 2 * i + 1;
    if (child >= heap.length) break;
    if (child + 1 < heap.length && heap[child + 1]!.entry.seq < heap[child]!.entry.seq) child++;
    if (heap[child]!.entry.seq >= seq) break;
    heap[i] = heap[child]!;
    i = child;
  }
  heap[i] = place;
}
