import type { Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { Worker } from 'node:worker_threads';
import pg from 'pg';
import { to as copyTo } from 'pg-copy-streams';
import type { Position } from '../event-store.js';

/** Which stored events to copy out. */
export interface CopyEventsQuery {
  /** Only these types are copied. */
  types: readonly string[];
  actor?: string;
  since?: Date;
  until?: Date;
  /** Exclusive. */
  after?: Position;
  /** Exclusive upper bound on the transaction id: the cut the rest of the export reads up to as well. */
  before: bigint;
}

/**
 * The columns, in order, of each CSV row: the stored event as it is (`time` is the ISO text of `occurredAt`). What can
 * be worked out from them (the day, the context) is left to the reader: Postgres's time goes to turning `data` into text.
 */
export const COPIED_COLUMNS = [
  'commit_position',
  'prepare_position',
  'stream',
  'revision',
  'type',
  'schema_version',
  'time',
  'actor',
  'data',
] as const;

/**
 * The log's visibility horizon now: every transaction below it has ended, so what is stored below it can no longer
 * change (the same rule readAll reads by). An export reads everything up to it.
 */
export async function visibleHorizon(connectionString: string): Promise<bigint> {
  const client = new pg.Client({ connectionString });
  await client.connect();
  try {
    const { rows } = await client.query<{ xmin: string }>(
      'select pg_snapshot_xmin(pg_current_snapshot())::text as xmin',
    );
    return BigInt(rows[0]!.xmin);
  } finally {
    await client.end();
  }
}

/**
 * Copies events straight out of the Postgres log as CSV (`COPY … TO STDOUT`), the data as stored: only for types with
 * nothing sealed and nothing to upcast, whose stored form is what every reader sees. One COPY per target, each on its
 * own connection with its share of the rows (by `seq`), so Postgres formats them on as many cores as there are
 * targets. Each target is ended when its share is written (destroyed if it failed). Returns the rows written to each.
 */
export async function copyEventsToCsv(
  connectionString: string,
  query: CopyEventsQuery,
  targets: readonly Writable[],
): Promise<number[]> {
  if (query.types.length === 0) {
    for (const target of targets) target.end();
    return targets.map(() => 0);
  }
  return Promise.all(targets.map((target, share) => copyShare(connectionString, query, target, share, targets.length)));
}

/** What `copyEventsToCsvFiles` hands its worker thread, and what the worker answers. */
export interface CopyWork {
  connectionString: string;
  query: CopyEventsQuery;
  files: string[];
}
export type CopyOutcome = { rows: number[] } | { error: string; code?: string };

/**
 * `copyEventsToCsv` into new files (only their owner may read them), from a worker thread: hundreds of megabytes piped
 * through the calling thread would make Postgres's COPYs wait on it whenever it is busy with something else (the export
 * opens sealed events meanwhile). The files are whole once it resolves; on `signal` the worker is stopped where it is.
 * Either way it settles only once the worker has ended.
 * Only from the built code (`dist`): the worker is its compiled module.
 */
export function copyEventsToCsvFiles(
  connectionString: string,
  query: CopyEventsQuery,
  files: readonly string[],
  signal?: AbortSignal,
): Promise<number[]> {
  return new Promise((resolve, reject) => {
    const work: CopyWork = { connectionString, query, files: [...files] };
    const worker = new Worker(new URL('./copy-events-worker.js', import.meta.url), { workerData: work });
    const stop = () => void worker.terminate();
    signal?.addEventListener('abort', stop, { once: true });
    let outcome: CopyOutcome | undefined;
    let failure: Error | undefined;
    // Its answer ends the worker (after a failed share the others would go on copying for nothing).
    worker.once('message', (answer: CopyOutcome) => {
      outcome = answer;
      stop();
    });
    worker.once('error', (error) => (failure = error));
    // Settled only once the worker is gone: no file of its own appears after the caller has cleaned up.
    worker.once('exit', (code) => {
      signal?.removeEventListener('abort', stop);
      if (outcome && 'rows' in outcome) resolve(outcome.rows);
      else if (outcome) reject(Object.assign(new Error(outcome.error), { code: outcome.code }));
      else reject(failure ?? new Error(`the copy out of Postgres stopped (worker exit ${code})`));
    });
  });
}

async function copyShare(
  connectionString: string,
  query: CopyEventsQuery,
  target: Writable,
  share: number,
  shares: number,
): Promise<number> {
  const client = new pg.Client({ connectionString });
  try {
    await client.connect();
    // COPY takes no bind parameters: every value is quoted by the driver's own escaping.
    const literal = (value: string) => client.escapeLiteral(value);
    const where = [
      `e.type in (${query.types.map(literal).join(', ')})`,
      `e.transaction_id < ${literal(query.before.toString())}::xid8`,
      `e.seq % ${shares} = ${share}`,
    ];
    if (query.after)
      where.push(
        `(e.transaction_id, e.seq) > (${literal(query.after.commit.toString())}::xid8, ${query.after.prepare.toString()})`,
      );
    if (query.actor !== undefined) where.push(`e.metadata->>'actor' = ${literal(query.actor)}`);
    if (query.since) where.push(`(e.metadata->>'occurredAt')::timestamptz >= ${literal(query.since.toISOString())}`);
    if (query.until) where.push(`(e.metadata->>'occurredAt')::timestamptz <= ${literal(query.until.toISOString())}`);
    const copy = client.query(
      copyTo(`copy (
        select e.transaction_id::text, e.seq, e.stream_id, e.revision, e.type,
               coalesce((e.metadata->>'schemaVersion')::int, 1), e.metadata->>'occurredAt', e.metadata->>'actor',
               e.data::text
        from events e
        where ${where.join(' and ')}
      ) to stdout (format csv)`),
    );
    await pipeline(copy, target);
    return copy.rowCount;
  } catch (error) {
    target.destroy(); // a share cut short: the caller gives the whole export up
    throw error;
  } finally {
    await client.end();
  }
}
