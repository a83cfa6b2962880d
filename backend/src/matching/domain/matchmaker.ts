import { accepts, Avoidances, type MatchmakerPort, type Pair, type Seeker } from './compatibility.js';

export type { MatchmakerPort, Pair, Seeker } from './compatibility.js';

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
  /** In the line of users from the same country and age band... */
  readonly byCountry: Place;
  /** ...and in the line of the same age band from every country, for arrivals who do not filter by country. */
  readonly byBand: Place;
  constructor(
    /** Arrival order: the oldest compatible entry (smallest seq) is the longest-waiting compatible user. */
    readonly seq: number,
    readonly seeker: Seeker,
    readonly arrivedAt: number,
    countryLine: Line,
    bandLine: Line,
  ) {
    this.byCountry = append(this, countryLine);
    this.byBand = append(this, bandLine);
  }
}

/** The users who share gender, wanted gender and wanted country: each of them accepts an arrival alike on those. */
interface Group {
  key: number;
  /** `country slot * BANDS + band` -> line. */
  lines: Map<number, Line>;
}

/**
 * The waiting queue, indexed. Users are grouped by what an arrival can test without looking at anyone:
 * their gender, the gender they want and the country they want; inside a group, lines by own country and age band
 * (and the same bands across all countries). An arrival picks the lines whose users it accepts and who accept it on
 * gender and country, and only the age bands its range touches, then merges the lines oldest first (a min-heap of
 * line heads by arrival order): the first entry both accept and not kept apart is the longest-waiting compatible
 * user. Only entries older than the answer are ever looked at, and only those in the arrival's age bands.
 */
export class Matchmaker implements MatchmakerPort {
  private readonly groups = new Map<number, Group>();
  private readonly byUser = new Map<string, Entry>();
  private readonly countries = new Map<string, number>();
  private readonly avoidances = new Avoidances();
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
    const found = this.oldestCompatible(seeker, now);
    if (!found) {
      this.add(seeker, now);
      return undefined;
    }
    this.remove(found);
    return { waiting: found.seeker, arrival: seeker, waitedMs: now - found.arrivedAt };
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

  private oldestCompatible(arrival: Seeker, now: number): Entry | undefined {
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
    for (let g = firstGender; g <= lastGender; g++) {
      for (const wantedGender of ACCEPTED_BY[arrival.gender]) {
        this.collect(groupKey(g, wantedGender, ANY_COUNTRY), lane, firstBand, lastBand);
        if (ownCountry !== undefined) this.collect(groupKey(g, wantedGender, ownCountry), lane, firstBand, lastBand);
      }
    }
    return this.merge(arrival, now);
  }

  /** Puts the head of each of the group's lines in `lane` and the bands from first to last on the heap. */
  private collect(key: number, lane: number, firstBand: number, lastBand: number) {
    const lines = this.groups.get(key)?.lines;
    if (!lines) return;
    for (let b = firstBand; b <= lastBand; b++) {
      const head = lines.get(lane * BANDS + b)?.head;
      if (head) this.heap.push(head);
    }
  }

  /** Walks the collected lines together, oldest entry first; the first compatible one is the answer. */
  private merge(arrival: Seeker, now: number): Entry | undefined {
    const heap = this.heap;
    for (let i = (heap.length >> 1) - 1; i >= 0; i--) siftDown(heap, i);
    while (heap.length > 0) {
      const place = heap[0]!;
      const other = place.entry.seeker;
      if (
        accepts(arrival, other) &&
        accepts(other, arrival) &&
        !this.avoidances.apart(arrival.userId, other.userId, now)
      ) {
        return place.entry;
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
    let group = this.groups.get(key);
    if (!group) this.groups.set(key, (group = { key, lines: new Map() }));
    const own = seeker.country === null ? UNKNOWN_COUNTRY : this.slot(seeker.country);
    const b = band(seeker.age);
    const countryLine = lineIn(group, own * BANDS + b);
    const bandLine = lineIn(group, ANY_COUNTRY * BANDS + b);
    this.byUser.set(seeker.userId, new Entry(this.nextSeq++, seeker, now, countryLine, bandLine));
  }

  private remove(entry: Entry) {
    this.byUser.delete(entry.seeker.userId);
    unlink(entry.byCountry);
    unlink(entry.byBand);
    // Empty groups go, so lookups for them miss at once (lines go in unlink).
    const group = entry.byBand.line.group;
    if (group.lines.size === 0) this.groups.delete(group.key);
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
