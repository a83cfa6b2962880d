/**
 * `npm run bench:export -- --json`: how fast analysts get the event log out, over a 1,000,000-event log. Measured, in
 * one run on the same database: `npm run events -- all` (NDJSON on stdout) and `npm run events -- export` (Parquet by
 * day and context), each the whole command as an analyst runs it (start-up included, personal fields turned into
 * pseudonyms); against the baseline `COPY (SELECT …) TO STDOUT` of the same columns of the same rows, Postgres's own
 * fastest way out. Each is run twice in turns and its faster run counts. Goal: Parquet at least 0.5x COPY.
 *
 * The log: 950,000 events without personal fields (calls paired and ended, likes), seeded with SQL, and 50,000 posts
 * whose text is personal, appended through the product's store so it is sealed as in production. Too long for the
 * test suite (a minute of seeding, then the exports), so it is a named script.
 */
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { DuckDBInstance } from '@duckdb/node-api';
import { createDb, migrateToLatest } from '@serendip/backend/platform/database/database.js';
import { sql } from 'kysely';
import pg from 'pg';
import { to as copyTo } from 'pg-copy-streams';
import { pino } from 'pino';
import { benchDatabase } from './bench-database.js';
import { PLAIN_EVENTS, SEALED_EVENTS, seedPlain, seedSealed } from './export-seed.js';
import { report } from './harness.js';

const logger = pino({ level: 'error' });
const say = (line: string) => process.stderr.write(`[bench:export] ${line}\n`);
const repoRoot = fileURLToPath(new URL('../../', import.meta.url));

async function main() {
  const database = await benchDatabase('export', 54337, logger);
  const key = randomBytes(32);
  const db = createDb(database.url);
  const outDir = await mkdtemp(path.join(os.tmpdir(), 'serendip-bench-export-'));
  try {
    await migrateToLatest(db, logger);
    say(`seeding ${PLAIN_EVENTS + SEALED_EVENTS} events (${database.postgres})`);
    const seeded = performance.now();
    await seedPlain(db);
    await seedSealed(database.url, db, key, logger);
    await sql`vacuum analyze events`.execute(db);
    say(`seeded in ${((performance.now() - seeded) / 1000).toFixed(1)} s`);
    const total = Number((await sql<{ n: string }>`select count(*) as n from events`.execute(db)).rows[0]!.n);

    const env = {
      PATH: process.env.PATH ?? '',
      DATABASE_URL: database.url,
      PERSONAL_DATA_KEY: key.toString('base64'),
      EVENTS_PSEUDONYM_KEY: 'bench',
      LOG_LEVEL: 'warn',
    };
    // Each way twice, in turns (COPY, NDJSON, Parquet, and again), the faster of its two counting: all three meet
    // the same load from the rest of the machine.
    const copies: { rows: number; seconds: number }[] = [];
    const ndjsons: { lines: number; seconds: number }[] = [];
    const parquets: { seconds: number }[] = [];
    const out = path.join(outDir, 'parquet');
    for (let round = 1; round <= 2; round++) {
      copies.push(await timedCopy(database.url));
      say(`COPY: ${copies.at(-1)!.rows} rows in ${copies.at(-1)!.seconds.toFixed(2)} s`);
      ndjsons.push(await timedCli(env, ['all']));
      say(`NDJSON: ${ndjsons.at(-1)!.lines} lines in ${ndjsons.at(-1)!.seconds.toFixed(2)} s`);
      await rm(out, { recursive: true, force: true });
      parquets.push(await timedCli(env, ['export', '--out', out]));
      say(`Parquet: ${parquets.at(-1)!.seconds.toFixed(2)} s`);
    }
    const fastest = <T extends { seconds: number }>(runs: T[]) =>
      runs.reduce((a, b) => (b.seconds < a.seconds ? b : a));
    const [copyBefore, ndjson, parquet] = [fastest(copies), fastest(ndjsons), fastest(parquets)];
    const copySeconds = copyBefore.seconds;

    // What the export holds, read back as an analyst would.
    const duck = await (await DuckDBInstance.create(':memory:')).connect();
    const [exported] = (
      await duck.runAndReadAll(
        `select count(*)::bigint as n, count(distinct context)::int as contexts, count(distinct day)::int as days
         from read_parquet('${out}/**/*.parquet', hive_partitioning = true)`,
      )
    ).getRowObjectsJson() as [{ n: string; contexts: number; days: number }];
    duck.closeSync();
    if (Number(exported.n) !== total || ndjson.lines !== total || copyBefore.rows !== total)
      throw new Error(
        `counts differ: log ${total}, COPY ${copyBefore.rows}, NDJSON ${ndjson.lines}, Parquet ${exported.n}`,
      );

    const perSec = (seconds: number) => Math.round(total / seconds);
    report({
      events: total,
      copyPerSec: perSec(copySeconds),
      ndjsonPerSec: perSec(ndjson.seconds),
      parquetPerSec: perSec(parquet.seconds),
      ndjsonToCopy: round(copySeconds / ndjson.seconds),
      parquetToCopy: round(copySeconds / parquet.seconds),
      parquetPartitions: { contexts: exported.contexts, days: exported.days },
      postgres: database.postgres,
      cpus: os.cpus().length,
    });
  } finally {
    await db.destroy();
    await database.drop();
    await rm(outDir, { recursive: true, force: true });
  }
}

/** Lines in a chunk of output, counted natively (a byte-by-byte loop would slow the sink it measures). */
function newlines(chunk: Buffer): number {
  let n = 0;
  for (let i = chunk.indexOf(10); i !== -1; i = chunk.indexOf(10, i + 1)) n++;
  return n;
}

const round = (n: number) => Math.round(n * 1000) / 1000;

/** Postgres's own fastest way out: the same columns as a line of `events all`, in log order, to a sink. */
async function timedCopy(url: string): Promise<{ rows: number; seconds: number }> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const started = performance.now();
    const stream = client.query(
      copyTo(`copy (
        select transaction_id, seq, stream_id, revision, type, metadata->>'schemaVersion', metadata->>'occurredAt',
               metadata->>'actor', data
        from events order by transaction_id, seq) to stdout`),
    );
    let rows = 0;
    for await (const chunk of stream as AsyncIterable<Buffer>) rows += newlines(chunk);
    return { rows, seconds: (performance.now() - started) / 1000 };
  } finally {
    await client.end();
  }
}

/** The CLI as an analyst runs it (`node backend/dist/cli/events.js …`), stdout counted and thrown away. */
function timedCli(env: Record<string, string>, args: string[]): Promise<{ lines: number; seconds: number }> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(process.execPath, ['backend/dist/cli/events.js', ...args], { cwd: repoRoot, env });
    let lines = 0;
    let err = '';
    child.stdout.on('data', (chunk: Buffer) => (lines += newlines(chunk)));
    child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
    child.once('error', reject);
    child.once('exit', (code) =>
      code === 0
        ? resolve({ lines, seconds: (performance.now() - started) / 1000 })
        : reject(new Error(`events ${args.join(' ')} exited ${code}: ${err.trim()}`)),
    );
  });
}

main().catch((error: unknown) => {
  process.stderr.write(`bench:export failed: ${(error as Error).stack ?? String(error)}\n`);
  process.exit(1);
});
