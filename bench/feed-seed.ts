/**
 * The feed's read models as a year of a busy app leaves them, seeded with SQL for `npm run bench:feed` (fast: set-based
 * statements over generate_series, each table's indexes dropped while it fills): 10,000 people in `users`, 1,000,000
 * posts, 10,000,000 likes skewed by popularity (each post's `like_count` is its rows) and a few hundred hidden authors.
 */
import { performance } from 'node:perf_hooks';
import { type Db } from '@serendip/backend/platform/database/database.js';
import { sql } from 'kysely';

const USERS = 10_000;
const POSTS = 1_000_000;
const LIKES = 10_000_000;
const HIDDEN_AUTHORS = 300;
/** A post's likers are distinct people, so no post has more likes than there are users. */
const MOST_LIKES = USERS;
/** Likes by popularity rank r fall off as r^-0.8 (Zipf): 28 posts at 10,000 likes, 513 over 1,000, the median 4. */
const SKEW = 0.8;

/** The largest scale `a` whose counts min(MOST_LIKES, floor(a * r^-SKEW)) over every post add up to at most LIKES. */
function likeScale(): number {
  const total = (a: number) => {
    let sum = 0;
    for (let r = 1; r <= POSTS; r++) sum += Math.min(MOST_LIKES, Math.floor(a * r ** -SKEW));
    return sum;
  };
  let [low, high] = [0, LIKES];
  for (let i = 0; i < 40; i++) {
    const mid = (low + high) / 2;
    if (total(mid) <= LIKES) low = mid;
    else high = mid;
  }
  return low;
}

/**
 * Bulk loads go faster into a table without its indexes: drops them (constraints too), fills the table, then builds
 * each again from its own definition, so the schema measured is the migration's.
 */
async function withoutIndexes(db: Db, table: string, fill: () => Promise<unknown>) {
  const constraints = await sql<{ name: string; def: string }>`
    select conname as name, pg_get_constraintdef(oid) as def from pg_constraint
    where conrelid = ${table}::regclass and contype in ('p', 'u')`.execute(db);
  const indexes = await sql<{ name: string; def: string }>`
    select indexname as name, indexdef as def from pg_indexes
    where schemaname = current_schema() and tablename = ${table}
      and indexname not in (select conname from pg_constraint where conrelid = ${table}::regclass)`.execute(db);
  for (const c of constraints.rows)
    await sql`alter table ${sql.id(table)} drop constraint ${sql.id(c.name)}`.execute(db);
  for (const i of indexes.rows) await sql`drop index ${sql.id(i.name)}`.execute(db);
  await fill();
  for (const c of constraints.rows)
    await sql`alter table ${sql.id(table)} add constraint ${sql.id(c.name)} ${sql.raw(c.def)}`.execute(db);
  for (const i of indexes.rows) await sql.raw(i.def).execute(db);
}

/** The feed as a year of a busy app leaves it; every step on one connection, with memory for sorts and index builds. */
export async function seedFeed(pool: Db, now: Date, say: (line: string) => void): Promise<Record<string, number>> {
  const steps: Record<string, number> = {};
  const step = async (name: string, run: () => Promise<unknown>) => {
    const started = performance.now();
    await run();
    steps[name] = Math.round(performance.now() - started);
    say(`${name}: ${(steps[name] / 1000).toFixed(1)} s`);
  };
  const scale = likeScale();
  await pool.connection().execute(async (db) => {
    await sql`set maintenance_work_mem = '1GB'`.execute(db);
    await sql`set work_mem = '512MB'`.execute(db);
    await sql`set synchronous_commit = off`.execute(db);
    try {
      await step('users', async () => {
        await sql`
          insert into users (user_id, email_address, email_verified, first_name, last_name, username, gender,
                             birth_date, registered_at, country, city, is_finished_steps)
          select gen_random_uuid(), 'person' || i || '@example.com', true,
                 (array['Ada','Bob','Cleo','Dan','Eve','Finn','Gia','Hugo','Ivy','Jon'])[1 + i % 10] || i,
                 'Tester' || (i % 997), 'user_' || i, (array['male','female'])[1 + i % 2],
                 date '1990-01-01' + (i % 9000), ${now}::timestamptz - (i || ' minutes')::interval,
                 (array['GB','DE','FR','US','BR'])[1 + i % 5], 'City', true
          from generate_series(1, ${USERS}) i`.execute(db);
        await sql`create temp table bench_people as
          select user_id, (row_number() over (order by user_id) - 1)::int as n from users`.execute(db);
        await sql`create unique index on bench_people (n)`.execute(db);
        // A few hundred people banned now: their posts are left out of every page (spec 2 "Banned-account screen").
        await sql`
          insert into feed_hidden_authors (case_id, user_id)
          select 'bench-ban-' || n, user_id from bench_people where n % 33 = 5 and n < ${HIDDEN_AUTHORS * 33}`.execute(
          db,
        );
      });
      // Each post's like count by a popularity rank shuffled over the feed (popular posts anywhere, old or new),
      // topped up by one on the most popular uncapped posts so the total is exactly LIKES.
      await step('like counts', async () => {
        await sql`
          create temp table bench_posts as
          select i, r, gen_random_uuid() as post_id, a.user_id as author_id,
                 ${now}::timestamptz - (${POSTS} - i) * interval '30 seconds' as created_at,
                 least(${MOST_LIKES}, floor(${scale}::float8 * power(r, ${-SKEW}::float8)))::int as n,
                 (hashint4(i) & 2147483647) % ${USERS} as first_liker
          from (select i, row_number() over (order by hashint4(i * 7 + 1), i) as r
                from generate_series(1, ${POSTS}) i) ranked
          join bench_people a on a.n = (hashint4(i + 7) & 2147483647) % ${USERS}`.execute(db);
        const total = (await sql<{ total: string }>`select sum(n) as total from bench_posts`.execute(db)).rows[0]!
          .total;
        const missing = LIKES - Number(total);
        if (missing > 0)
          await sql`update bench_posts set n = n + 1 where r in (
            select r from bench_posts where n < ${MOST_LIKES} order by r limit ${missing})`.execute(db);
        if (missing < 0)
          await sql`update bench_posts set n = n - 1 where r in (
            select r from bench_posts where n > 1 order by r desc limit ${-missing})`.execute(db);
      });
      // seq follows created_at (the order the log met them), so both orders page the same posts.
      await step('posts', () =>
        withoutIndexes(db, 'feed_posts', () =>
          sql`
            insert into feed_posts (post_id, author_id, text, created_at, like_count, comment_count)
            select post_id, author_id, 'Post ' || i || ': ' || repeat('a sunny day by the sea, ', 1 + i % 6),
                   created_at, n, 0
            from bench_posts order by i`.execute(db),
        ),
      );
      // Likers of a post are distinct people (its first liker, then steps of a prime over everyone), liked between
      // the post's time and now, written in the order they happened (as the projection would have).
      await step('likes', () =>
        withoutIndexes(db, 'feed_likes', () =>
          sql`
            insert into feed_likes (post_id, user_id, liked_at)
            select p.post_id, u.user_id,
                   p.created_at + (${now}::timestamptz - p.created_at) * ((k + 1)::float8 / (p.n + 1))
            from bench_posts p
            cross join lateral generate_series(0, p.n - 1) k
            join bench_people u on u.n = (p.first_liker + k * 7919) % ${USERS}
            order by 3`.execute(db),
        ),
      );
      // What autovacuum would have done by now (and would otherwise do in the middle of the measurements).
      await step('vacuum analyze', () =>
        sql`vacuum (analyze) feed_posts, feed_likes, feed_hidden_authors, users`.execute(db),
      );
    } finally {
      // The connection goes back to the pool the measurements use: as it came, without the scratch tables.
      await sql`reset all`.execute(db);
      await sql`discard temp`.execute(db);
    }
  });
  return steps;
}

/** What was seeded, counted from the tables; throws unless it is what was asked (like counts matching their rows). */
export async function seededCounts(db: Db) {
  const counts = (
    await sql<{
      users: string;
      posts: string;
      likes: string;
      hidden_authors: string;
      hidden_posts: string;
      most_likes: number;
      median_likes: number;
      like_count_sum: string;
      wrong_like_counts: string;
    }>`
      select (select count(*) from users) as users,
             (select count(*) from feed_posts) as posts,
             (select count(*) from feed_likes) as likes,
             (select count(*) from feed_hidden_authors) as hidden_authors,
             (select count(*) from feed_posts p join feed_hidden_authors h on h.user_id = p.author_id) as hidden_posts,
             (select max(like_count) from feed_posts) as most_likes,
             (select percentile_disc(0.5) within group (order by like_count) from feed_posts) as median_likes,
             (select sum(like_count) from feed_posts) as like_count_sum,
             (select count(*) from feed_posts p
              left join (select post_id, count(*) as likes from feed_likes group by post_id) l using (post_id)
              where p.like_count <> coalesce(l.likes, 0)) as wrong_like_counts`.execute(db)
  ).rows[0]!;
  const seeded = {
    users: Number(counts.users),
    posts: Number(counts.posts),
    likes: Number(counts.likes),
    hiddenAuthors: Number(counts.hidden_authors),
    hiddenPosts: Number(counts.hidden_posts),
    mostLikesOnAPost: counts.most_likes,
    medianLikesOnAPost: counts.median_likes,
  };
  if (
    seeded.posts !== POSTS ||
    seeded.likes !== LIKES ||
    Number(counts.like_count_sum) !== LIKES ||
    Number(counts.wrong_like_counts) !== 0
  )
    throw new Error(`the seeded rows are not what was asked: ${JSON.stringify(counts)}`);
  return seeded;
}
