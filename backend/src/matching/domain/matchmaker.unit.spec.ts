import type { MatchFilters } from '@serendip/proto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Avoidances, INTEREST_WAIT_MS, type MatchmakerPort, type Pair, type Seeker } from './compatibility.js';
import { Matchmaker } from './matchmaker.js';
import { NaiveMatchmaker } from './naive-matchmaker.js';

const ANY: MatchFilters = { gender: null, country: null, ageRange: [18, 110] };
const WANTS_MEN: MatchFilters = { ...ANY, gender: 'male' };
const seeker = (userId: string, over: Partial<Omit<Seeker, 'userId'>> = {}): Seeker => ({
  userId,
  gender: 'female',
  age: 30,
  country: 'DE',
  filters: ANY,
  ...over,
});
const ids = (pair: Pair | undefined) => pair && [pair.waiting.userId, pair.arrival.userId];

describe.each([
  ['indexed', () => new Matchmaker()],
  ['naive', () => new NaiveMatchmaker()],
])('the %s matchmaker', (_name, make: () => MatchmakerPort) => {
  /** Given these users waiting (each arriving at its time, none pairing with another). */
  const given = (...waiting: [Seeker, number][]) => {
    const matchmaker = make();
    for (const [s, at] of waiting) expect(matchmaker.arrive(s, at)).toBeUndefined();
    return matchmaker;
  };

  it('pairs an arrival with the longest-waiting user both accept, and says how long they waited', () => {
    const m = make();
    expect(m.arrive(seeker('ada'), 1_000)).toBeUndefined();
    expect(m.arrive(seeker('bea'), 2_000)).toMatchObject({ waiting: { userId: 'ada' }, arrival: { userId: 'bea' } });
    expect(m.arrive(seeker('cai'), 3_000)).toBeUndefined();
    expect(m.arrive(seeker('dan'), 3_500)).toEqual({
      waiting: seeker('cai'),
      arrival: seeker('dan'),
      waitedMs: 500,
      arrivalWaitedMs: 0,
      sharedInterests: [],
    });
    expect(m.size).toBe(0);
  });

  it('breaks a tie in waiting time by arrival order', () => {
    const m = given([seeker('ada', { filters: WANTS_MEN }), 5], [seeker('bea', { filters: WANTS_MEN }), 5]);
    expect(ids(m.arrive(seeker('cai', { gender: 'male' }), 5))).toEqual(['ada', 'cai']);
  });

  it('pairs only people who accept each other: gender, country and age, both ways', () => {
    const m = given(
      [seeker('wants-men', { filters: { ...ANY, gender: 'male' } }), 0],
      [seeker('in-fr', { country: 'FR', filters: { ...ANY, country: 'FR' } }), 1],
      [seeker('wants-young', { filters: { ...ANY, ageRange: [18, 25] } }), 2],
      [seeker('unknown-place', { country: null }), 3],
    );
    // A 30-year-old woman from Germany: the first three refuse her; the fourth accepts anyone.
    expect(ids(m.arrive(seeker('eva'), 4))).toEqual(['unknown-place', 'eva']);
    // She only wants France: 'in-fr' wants France too, but she is from Germany.
    expect(m.arrive(seeker('lea', { filters: { ...ANY, country: 'FR' } }), 5)).toBeUndefined();
    expect(ids(m.arrive(seeker('tom', { gender: 'male', age: 24 }), 6))).toEqual(['wants-men', 'tom']);
    expect(ids(m.arrive(seeker('zoe', { age: 22, country: 'FR' }), 7))).toEqual(['in-fr', 'zoe']);
  });

  it('counts both ends of an age range in, and nothing beyond them', () => {
    const m = given(
      [seeker('aged-24', { age: 24, filters: WANTS_MEN }), 0],
      [seeker('aged-41', { age: 41, filters: WANTS_MEN }), 1],
      [seeker('aged-25', { age: 25, filters: WANTS_MEN }), 2],
      [seeker('aged-40', { age: 40, filters: WANTS_MEN }), 3],
    );
    const wants25to40 = (userId: string) => seeker(userId, { gender: 'male', filters: { ...ANY, ageRange: [25, 40] } });
    expect(ids(m.arrive(wants25to40('x'), 4))).toEqual(['aged-25', 'x']);
    expect(ids(m.arrive(wants25to40('y'), 5))).toEqual(['aged-40', 'y']);
    expect(m.arrive(wants25to40('z'), 6)).toBeUndefined();
  });

  it('lets a waiting user refuse an arrival for their age, even when the arrival accepts them', () => {
    const m = given([seeker('wants-40s', { filters: { ...ANY, ageRange: [40, 49] } }), 0]);
    expect(m.arrive(seeker('aged-39', { age: 39 }), 1)).toBeUndefined();
    expect(ids(m.arrive(seeker('aged-49', { age: 49 }), 2))).toEqual(['wants-40s', 'aged-49']);
  });

  it('keeps a user with an unknown country away from anyone who filters by country', () => {
    const m = given([seeker('picky', { filters: { ...ANY, country: 'DE' } }), 0]);
    expect(m.arrive(seeker('nowhere', { country: null }), 1)).toBeUndefined();
    expect(ids(m.arrive(seeker('from-de'), 2))).toEqual(['picky', 'from-de']);
  });

  it('queues an arrival who wants a country nobody waiting comes from', () => {
    const m = given([seeker('ada'), 0]);
    expect(m.arrive(seeker('bea', { filters: { ...ANY, country: 'JP' } }), 1)).toBeUndefined();
    expect(m.size).toBe(2);
  });

  it('never pairs a user with themselves: arriving again replaces their place in the queue', () => {
    const m = given([seeker('ada'), 0]);
    expect(m.arrive(seeker('ada'), 1)).toBeUndefined();
    expect(m.size).toBe(1);
    expect(m.isWaiting('ada')).toBe(true);
    expect(m.leave('ada')).toBe(true);
    expect(m.leave('ada')).toBe(false);
    expect(m.isWaiting('ada')).toBe(false);
    expect(m.size).toBe(0);
  });

  it('puts a user who arrives again at the back: they wait from their new arrival', () => {
    const m = given([seeker('ada', { filters: WANTS_MEN }), 0], [seeker('bea', { filters: WANTS_MEN }), 1]);
    m.arrive(seeker('ada', { filters: WANTS_MEN }), 2);
    const cai = seeker('cai', { gender: 'male' });
    expect(m.arrive(cai, 10)).toMatchObject({
      waiting: seeker('bea', { filters: WANTS_MEN }),
      arrival: cai,
      waitedMs: 9,
    });
    expect(m.arrive(seeker('dan', { gender: 'male' }), 10)).toMatchObject({ waiting: { userId: 'ada' }, waitedMs: 8 });
  });

  it('keeps two people apart until the avoidance ends, both ways', () => {
    const m = make();
    m.avoid('ada', 'bob', 600_000);
    m.arrive(seeker('ada'), 0);
    expect(m.arrive(seeker('bob', { gender: 'male' }), 1_000)).toBeUndefined();
    expect(ids(m.arrive(seeker('cai'), 2_000))).toEqual(['ada', 'cai']);
    // One ms before the end, neither finds the other, whoever arrives first.
    expect(m.arrive(seeker('ada'), 599_999)).toBeUndefined();
    expect(m.leave('bob')).toBe(true);
    expect(m.arrive(seeker('bob', { gender: 'male' }), 599_999)).toBeUndefined();
    expect(m.leave('bob')).toBe(true);
    expect(ids(m.arrive(seeker('bob', { gender: 'male' }), 600_000))).toEqual(['ada', 'bob']);
  });

  it('skips an avoided user for the next one both accept', () => {
    const m = given([seeker('ada', { filters: WANTS_MEN }), 0], [seeker('bea', { filters: WANTS_MEN }), 1]);
    m.avoid('cai', 'ada', Infinity);
    expect(ids(m.arrive(seeker('cai', { gender: 'male' }), 2))).toEqual(['bea', 'cai']);
  });

  const likes = (...interests: string[]): MatchFilters => ({ ...ANY, interests });

  it('prefers the longest-waiting compatible user who shares an interest, and says which interests they share', () => {
    const m = given(
      [seeker('plain'), 0],
      [seeker('chess', { filters: likes('chess') }), 1],
      [seeker('jazz-old', { filters: likes('jazz', 'go') }), 2],
      [seeker('art', { filters: likes('art') }), 3],
    );
    expect(m.arrive(seeker('eva', { filters: likes('go', 'jazz', 'art') }), 4)).toMatchObject({
      waiting: { userId: 'jazz-old' },
      sharedInterests: ['go', 'jazz'],
      arrivalWaitedMs: 0,
    });
    // Someone without interests takes the longest-waiting user who is not held for shared interests.
    expect(ids(m.arrive(seeker('tom'), 5))).toEqual(['plain', 'tom']);
    expect(m.arrive(seeker('ugo'), 6)).toBeUndefined();
  });

  it('never pairs people who share an interest but whose filters refuse each other', () => {
    const m = given([seeker('jazz-fr', { country: 'FR', filters: { ...likes('jazz'), country: 'FR' } }), 0]);
    expect(m.arrive(seeker('jazz-de', { filters: likes('jazz') }), 1)).toBeUndefined();
    expect(m.size).toBe(2);
  });

  it('holds a user with interests for a partner sharing one for INTEREST_WAIT_MS at most, then takes anyone', () => {
    const m = given([seeker('jazz', { filters: likes('jazz') }), 1_000]);
    expect(m.arrive(seeker('plain'), 1_000 + INTEREST_WAIT_MS - 1)).toBeUndefined();
    expect(m.leave('plain')).toBe(true);
    // Once the hold is over, anyone compatible may pair with them.
    expect(m.arrive(seeker('plain'), 1_000 + INTEREST_WAIT_MS)).toMatchObject({
      waiting: { userId: 'jazz' },
      arrival: { userId: 'plain' },
      waitedMs: INTEREST_WAIT_MS,
      sharedInterests: [],
    });
  });

  it('holds an arrival with interests too: they wait for a sharer rather than take the first compatible user', () => {
    const m = given([seeker('plain'), 0], [seeker('jazz', { filters: likes('jazz') }), 10]);
    expect(m.size).toBe(2);
    expect(ids(m.arrive(seeker('fan', { filters: likes('jazz') }), 20))).toEqual(['jazz', 'fan']);
  });

  it('releases a held user when their hold ends: paired with a waiting user open to anyone, in hold order', () => {
    const m = given(
      [seeker('plain', { filters: WANTS_MEN }), 0],
      [seeker('jazz', { gender: 'male', filters: likes('jazz') }), 100],
      [seeker('chess', { gender: 'male', filters: likes('chess') }), 200],
    );
    expect(m.release(100 + INTEREST_WAIT_MS - 1)).toEqual([]);
    expect(m.release(200 + INTEREST_WAIT_MS)).toEqual([
      {
        waiting: seeker('plain', { filters: WANTS_MEN }),
        arrival: seeker('jazz', { gender: 'male', filters: likes('jazz') }),
        waitedMs: 200 + INTEREST_WAIT_MS,
        arrivalWaitedMs: 100 + INTEREST_WAIT_MS,
        sharedInterests: [],
      },
    ]);
    // 'chess' found nobody: released, they wait on open to anyone (a later release does not try them again).
    expect(m.release(10 * INTEREST_WAIT_MS)).toEqual([]);
    expect(ids(m.arrive(seeker('eva'), 10 * INTEREST_WAIT_MS))).toEqual(['chess', 'eva']);
  });

  it('releases two held users with different interests to each other once both holds are over', () => {
    const m = given([seeker('jazz', { filters: likes('jazz') }), 0], [seeker('chess', { filters: likes('chess') }), 1]);
    expect(m.release(INTEREST_WAIT_MS)).toEqual([]);
    expect(m.release(INTEREST_WAIT_MS + 1).map(ids)).toEqual([['jazz', 'chess']]);
    expect(m.size).toBe(0);
  });

  it('never lets a later, shorter avoidance end a block', () => {
    const m = make();
    m.avoid('ada', 'bob', Infinity);
    m.avoid('bob', 'ada', 600_000);
    m.arrive(seeker('ada'), 0);
    expect(m.arrive(seeker('bob'), 10_000_000)).toBeUndefined();
  });
});

describe('avoidances', () => {
  it('forgets those that ended, keeps the extended and the permanent ones', () => {
    const avoidances = new Avoidances();
    avoidances.avoid('ada', 'bob', 100);
    avoidances.avoid('ada', 'cai', 100);
    avoidances.avoid('cai', 'ada', 300);
    avoidances.avoid('ada', 'dan', Infinity);
    avoidances.forgetEnded(200);
    expect(avoidances.remembered).toBe(4);
    expect(avoidances.apart('bob', 'ada', 50)).toBe(false);
    expect(avoidances.apart('ada', 'cai', 299)).toBe(true);
    avoidances.forgetEnded(300);
    expect(avoidances.remembered).toBe(2);
    expect(avoidances.apart('dan', 'ada', Number.MAX_VALUE)).toBe(true);
  });
});

const countries = ['DE', 'FR', 'BR', 'US', 'IN'] as const;
const tags = ['jazz', 'chess', 'go', 'art', 'cats'] as const;
/** An arrival or leave by one of `users` users, or an avoidance between two of them, with the clock moving on. */
const operation = (users: number, ages: [number, number]) =>
  fc.oneof(
    {
      weight: 6,
      arbitrary: fc.record({
        kind: fc.constant('arrive' as const),
        user: fc.nat({ max: users - 1 }),
        gender: fc.constantFrom('male' as const, 'female' as const),
        age: fc.integer({ min: ages[0], max: ages[1] }),
        country: fc.constantFrom(...countries.slice(0, 3), null),
        wantsGender: fc.constantFrom('male' as const, 'female' as const, null),
        wantsCountry: fc.constantFrom(...countries, null, null),
        min: fc.integer({ min: ages[0], max: ages[1] }),
        span: fc.oneof(fc.integer({ min: 0, max: 12 }), fc.integer({ min: 0, max: 100 })),
        interests: fc.oneof(
          { weight: 2, arbitrary: fc.constant([] as string[]) },
          { weight: 3, arbitrary: fc.uniqueArray(fc.constantFrom(...tags), { minLength: 1, maxLength: 3 }) },
        ),
        advance: fc.oneof(
          fc.constant(0),
          fc.integer({ min: 0, max: 1_000 }),
          fc.integer({ min: 0, max: 2 * INTEREST_WAIT_MS }),
          fc.integer({ min: 0, max: 400_000 }),
        ),
      }),
    },
    {
      weight: 2,
      arbitrary: fc.record({
        kind: fc.constant('release' as const),
        advance: fc.oneof(fc.integer({ min: 0, max: 2 * INTEREST_WAIT_MS }), fc.constant(INTEREST_WAIT_MS)),
      }),
    },
    { weight: 2, arbitrary: fc.record({ kind: fc.constant('leave' as const), user: fc.nat({ max: users - 1 }) }) },
    {
      weight: 1,
      arbitrary: fc.record({
        kind: fc.constant('avoid' as const),
        a: fc.nat({ max: users - 1 }),
        b: fc.nat({ max: users - 1 }),
        forMs: fc.oneof(fc.integer({ min: 1, max: 600_000 }), fc.constant(Infinity)),
      }),
    },
  );

type Operation = ReturnType<typeof operation> extends fc.Arbitrary<infer T> ? T : never;

/** Runs the operations on both matchmakers and expects the same answer to each, and the same queue after it. */
function sameDecisions(users: number, operations: readonly Operation[]) {
  const indexed = new Matchmaker();
  const naive = new NaiveMatchmaker();
  let now = 0;
  for (const op of operations) {
    switch (op.kind) {
      case 'arrive': {
        now += op.advance;
        const s: Seeker = {
          userId: `u${op.user}`,
          gender: op.gender,
          age: op.age,
          country: op.country,
          filters: {
            gender: op.wantsGender,
            country: op.wantsCountry,
            ageRange: [op.min, op.min + op.span],
            ...(op.interests.length > 0 || op.user % 2 ? { interests: op.interests } : {}),
          },
        };
        expect(indexed.arrive(s, now)).toEqual(naive.arrive(s, now));
        break;
      }
      case 'release':
        now += op.advance;
        expect(indexed.release(now)).toEqual(naive.release(now));
        break;
      case 'leave':
        expect(indexed.leave(`u${op.user}`)).toBe(naive.leave(`u${op.user}`));
        break;
      case 'avoid':
        indexed.avoid(`u${op.a}`, `u${op.b}`, now + op.forMs);
        naive.avoid(`u${op.a}`, `u${op.b}`, now + op.forMs);
        break;
      default:
        return op satisfies never;
    }
    expect(indexed.size).toBe(naive.size);
  }
  for (let u = 0; u < users; u++) expect(indexed.isWaiting(`u${u}`)).toBe(naive.isWaiting(`u${u}`));
}

describe('the indexed matchmaker against the naive one (property)', () => {
  it('makes the same pairs, in the same order, among a few users who meet again and again', () => {
    fc.assert(
      fc.property(fc.array(operation(12, [18, 60]), { maxLength: 150 }), (ops) => sameDecisions(12, ops)),
      { numRuns: 600 },
    );
  });

  it('makes the same pairs among users with interests, as holds end and the clock moves on', () => {
    fc.assert(
      fc.property(fc.array(operation(30, [18, 40]), { minLength: 50, maxLength: 300 }), (ops) =>
        sameDecisions(30, ops),
      ),
      { numRuns: 300 },
    );
  });

  it('makes the same pairs among many users of every age, ages beyond 18..110 included', () => {
    fc.assert(
      fc.property(fc.array(operation(80, [14, 116]), { minLength: 100, maxLength: 400 }), (ops) =>
        sameDecisions(80, ops),
      ),
      { numRuns: 200 },
    );
  });
});
