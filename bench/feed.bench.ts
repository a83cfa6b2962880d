/**
 * `npm run bench:feed -- --json`: how fast the feed's pages answer over a big feed: 1,000,000 posts by 10,000 people,
 * 10,000,000 likes (a few posts liked by thousands, most by a handful) and a few hundred hidden (banned) authors, seeded
 * with SQL into the read models of a fresh database. Pages are read through the product's own `PostReads.page()` (a
 * keyset on `seq`, each post with its latest likers, whether the viewer liked it, banned authors left out, then the
 * authors' names from `users`), at page 1 and deep pages reached by cursor. Baseline, same run, same data: the naive
 * `ORDER BY created_at DESC OFFSET n`, with the same per-post subqueries and names, at the same depths (given an index
 * on `created_at`, so it is the OFFSET that is measured, not a missing index). Too long for the test suite (about a
 * minute of seeding, 2-3 minutes in all), so it is a named script.
 */
import 'reflect-metadata';
import os from 'node:os';
import { performance } from 'node:perf_hooks';
import { encodeCursor } from '@serendip/backend/feed/queries/posts/cursor.js';
import { PostReads, type Viewer } from '@serendip/backend/feed/queries/posts/post-reads.js';
import type { AccountStanding } from '@serendip/backend/identity/public/account-standing.js';
import { UserDirectory } from '@serendip/backend/identity/public/user-directory.js';
import { createDb, type Db, migrateToLatest } from '@serendip/backend/platform/database/database.js';
import { FEED_PAGE_SIZE, LIKES_LISTED } from '@serendip/proto';
import { sql } from 'kysely';
import { pino } from 'pino';
import { benchDatabase } from './bench-database.js';
import { seedFeed, seededCounts } from './feed-seed.js';
import { percentile, report } from './harness.js';

const PAGES = [1, 50, 500, 5_000];
const WARMUPS = 3;
/** Rounds of page 1 both ways before any is measured. */
const WARMUP_ROUNDS = 50;
const SAMPLES = 100;
/** The naive deep pages take seconds each: they stop after this long (at least MIN_SAMPLES). */
const NAIVE_BUDGET_MS = 30_000;
const MIN_SAMPLES = 5;
const logger = pino({ level: 'error' });
const say = (line: string) => process.stderr.write(`[bench:feed] ${line}\n`);

interface Figures {
  p50Ms: number;
  p95Ms: number;
  p99Ms: number;
  samples: number;
}

/**
 * Times both ways at one depth, a sample of each in turn (so both meet the same load from the rest of the machine),
 * SAMPLES each; the naive one stops after NAIVE_BUDGET_MS (at least MIN_SAMPLES) and the keyset one goes on alone.
 */
async function measureBoth(keyset: () => Promise<unknown>, naive: () => Promise<unknown>) {
  for (let i = 0; i < WARMUPS; i++) {
    await keyset();
    await naive();
  }
  const samples = { keyset: [] as number[], naive: [] as number[] };
  const timed = async (into: number[], run: () => Promise<unknown>) => {
    const t = performance.now();
    await run();
    into.push(performance.now() - t);
  };
  const started = performance.now();
  const naiveWanted = () =>
    samples.naive.length < SAMPLES &&
    (samples.naive.length < MIN_SAMPLES || performance.now() - started < NAIVE_BUDGET_MS);
  while (samples.keyset.length < SAMPLES || naiveWanted()) {
    if (samples.keyset.length < SAMPLES) await timed(samples.keyset, keyset);
    if (naiveWanted()) await timed(samples.naive, naive);
  }
  return { keyset: figures(samples.keyset), naive: figures(samples.naive) };
}

function figures(samples: number[]): Figures {
  const sorted = samples.sort((a, b) => a - b);
  const at = (p: number) => Math.round(percentile(sorted, p) * 1000) / 1000;
  return { p50Ms: at(50), p95Ms: at(95), p99Ms: at(99), samples: samples.length };
}

/** The naive page: OFFSET over created_at, with the same select list and the same names lookup as `PostReads`. */
async function naivePage(db: Db, users: UserDirectory, viewerId: string, offset: number): Promise<string[]> {
  const rows = await sql<{ post_id: string; author_id: string }>`
    select p.post_id, p.seq, p.author_id, p.text, p.created_at, p.like_count, p.comment_count,
           array(select l.user_id::text from feed_likes l where l.post_id = p.post_id
                 order by l.liked_at desc limit ${sql.lit(LIKES_LISTED)}) as likes,
           exists (select 1 from feed_likes mine where mine.post_id = p.post_id and mine.user_id = ${viewerId})
             as liked_by_me
    from feed_posts p
    where not exists (select 1 from feed_hidden_authors h where h.user_id = p.author_id)
    order by p.created_at desc
    offset ${offset} limit ${FEED_PAGE_SIZE + 1}`.execute(db);
  const items = rows.rows.slice(0, FEED_PAGE_SIZE);
  await users.publicAuthors(items.map((r) => r.author_id));
  return items.map((r) => r.post_id);
}

async function main() {
  const database = await benchDatabase('feed', 54397, logger);
  const db = createDb(database.url, logger);
  try {
    await migrateToLatest(db, logger);
    const now = new Date();
    const seedStarted = performance.now();
    const steps = await seedFeed(db, now, say);
    const seedMs = Math.round(performance.now() - seedStarted);
    say(`seeded in ${(seedMs / 1000).toFixed(1)} s`);

    const checkStarted = performance.now();
    const counts = await seededCounts(db);
    say(`checked the seeded rows in ${((performance.now() - checkStarted) / 1000).toFixed(1)} s`);

    const users = new UserDirectory(db, { isRestricted: () => Promise.resolve(false) } satisfies AccountStanding);
    const reads = new PostReads(db, users);
    const viewerId = (
      await sql<{ user_id: string }>`
      select user_id from users u where not exists (select 1 from feed_hidden_authors h where h.user_id = u.user_id)
      order by user_id limit 1 offset 4242`.execute(db)
    ).rows[0]!.user_id;
    const viewer: Viewer = { userId: viewerId, staff: false };

    // Page n's cursor is the seq of the last post page n - 1 showed (a client gets it from that page's `next`).
    const cursorFor = async (page: number) => {
      if (page === 1) return undefined;
      const row = await sql<{ seq: string }>`
        select seq from feed_posts p
        where not exists (select 1 from feed_hidden_authors h where h.user_id = p.author_id)
        order by seq desc offset ${(page - 1) * FEED_PAGE_SIZE - 1} limit 1`.execute(db);
      return encodeCursor(String(row.rows[0]!.seq));
    };
    // The baseline's index: its plan reads posts by created_at (EXPLAIN shows PostReads still reads by seq).
    await sql`create index bench_feed_posts_created_at on feed_posts (created_at desc)`.execute(db);
    await sql`analyze feed_posts`.execute(db);
    // Both ways warm up together (the JIT, the pool, the pages every page touches), so the first one measured is
    // not the one that pays for it.
    for (let i = 0; i < WARMUP_ROUNDS; i++) {
      await reads.page(viewer, undefined);
      await naivePage(db, users, viewerId, 0);
    }
    const loadBefore = os.loadavg()[0]!;
    const pages = [];
    for (const page of PAGES) {
      const cursor = await cursorFor(page);
      const offset = (page - 1) * FEED_PAGE_SIZE;
      const ids = (await reads.page(viewer, cursor)).items.map((p) => p._id);
      if (ids.length !== FEED_PAGE_SIZE) throw new Error(`page ${page} has ${ids.length} posts`);
      if (ids.join() !== (await naivePage(db, users, viewerId, offset)).join())
        throw new Error(`page ${page}: the naive query pages other posts than PostReads`);
      const { keyset, naive } = await measureBoth(
        () => reads.page(viewer, cursor),
        () => naivePage(db, users, viewerId, offset),
      );
      say(`page ${page}: p50 ${keyset.p50Ms} ms, naive ${naive.p50Ms} ms (${naive.samples} samples)`);
      pages.push({ page, offset, keyset, naive, naiveToKeysetP50: round(naive.p50Ms / keyset.p50Ms) });
    }

    const seeded = { ...counts, seedMs, seedStepsMs: steps };
    const result = {
      pages,
      deepestToFirstKeysetP50: round(pages.at(-1)!.keyset.p50Ms / pages[0]!.keyset.p50Ms),
      seeded,
      baseline: 'ORDER BY created_at DESC OFFSET n, same subqueries and names, with an index on created_at',
      samplesPerPage: SAMPLES,
      naiveBudgetMs: NAIVE_BUDGET_MS,
      postgres: database.postgres,
      // Other work on the machine shows in the tails: the 1-minute load average as the measurements began and ended.
      loadAverage: [round(loadBefore), round(os.loadavg()[0]!)],
    };
    // The table for a person; with --json it goes to stderr so stdout stays the one JSON object.
    const print = process.argv.includes('--json') ? say : (line: string) => console.log(line);
    const row = (cells: (string | number)[]) => cells.map((c) => String(c).padStart(10)).join('');
    print(
      row([
        'page',
        'offset',
        'keyset n',
        'p50 ms',
        'p95 ms',
        'p99 ms',
        'naive n',
        'p50 ms',
        'p95 ms',
        'p99 ms',
        'naive/key',
      ]),
    );
    for (const p of pages)
      print(
        row([
          p.page,
          p.offset,
          p.keyset.samples,
          p.keyset.p50Ms,
          p.keyset.p95Ms,
          p.keyset.p99Ms,
          p.naive.samples,
          p.naive.p50Ms,
          p.naive.p95Ms,
          p.naive.p99Ms,
          p.naiveToKeysetP50,
        ]),
      );
    print(
      `seeded ${seeded.posts} posts, ${seeded.likes} likes (most ${seeded.mostLikesOnAPost}, median ` +
        `${seeded.medianLikesOnAPost}), ${seeded.users} users, ${seeded.hiddenAuthors} hidden authors ` +
        `(${seeded.hiddenPosts} posts) in ${(seedMs / 1000).toFixed(1)} s; load average ` +
        `${result.loadAverage.join(' to ')}`,
    );
    report(result);
  } finally {
    await db.destroy();
    await database.drop();
  }
}

function round(n: number): number {
  return Math.round(n * 100) / 100;
}

void main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
