import { createWriteStream } from 'node:fs';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import pg from 'pg';
import { to as copyTo } from 'pg-copy-streams';
import type { Position } from '../event-store.js';

/** Which stored events to copy out, and what context each type belongs to. */
export interface CopyEventsQuery {
  /** type → context; only these types are copied. */
  contextOf: ReadonlyMap<string, string>;
  actor?: string;
  since?: Date;
  until?: Date;
  /** Exclusive. */
  after?: Position;
  /** Exclusive upper bound on the transaction id: the cut the rest of the export reads up to as well. */
  before: bigint;
}

/** The columns, in order, of each CSV row: the export's columns (`events export`). */
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
  'day',
  'context',
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
 * nothing sealed and nothing to upcast, whose stored form is what every reader sees. One COPY per file, each on its own
 * connection with its share of the rows (by `seq`), so Postgres formats them on as many cores as there are files.
 * Returns the rows written to each file.
 */
export async function copyEventsToCsv(
  connectionString: string,
  query: CopyEventsQuery,
  files: readonly string[],
): Promise<number[]> {
  if (query.contextOf.size === 0) return files.map(() => 0);
  return Promise.all(files.map((file, share) => copyShare(connectionString, query, file, share, files.length)));
}

async function copyShare(
  connectionString: string,
  query: CopyEventsQuery,
  file: string,
  share: number,
  shares: number,
): Promise<number> {
  const client = new pg.Client({ connectionString });
  await client.connect();
  try {
    // COPY takes no bind parameters: every value is quoted by the driver's own escaping.
    const literal = (value: string) => client.escapeLiteral(value);
    const types = [...query.contextOf].map(([type, context]) => `(${literal(type)}, ${literal(context)})`).join(', ');
    const where = [`e.transaction_id < ${literal(query.before.toString())}::xid8`, `e.seq % ${shares} = ${share}`];
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
               e.data::text, left(e.metadata->>'occurredAt', 10), m.context
        from events e join (values ${types}) as m(type, context) on m.type = e.type
        where ${where.join(' and ')}
      ) to stdout (format csv)`),
    );
    await pipeline(copy, coalesce(), createWriteStream(file));
    return copy.rowCount;
  } finally {
    await client.end();
  }
}

const COALESCED_BYTES = 4 << 20;

/** COPY sends one message a row: written as they come, a million rows would be a million writes. */
function coalesce(): Transform {
  let held: Buffer[] = [];
  let bytes = 0;
  return new Transform({
    transform(chunk: Buffer, _encoding, done) {
      held.push(chunk);
      bytes += chunk.length;
      if (bytes < COALESCED_BYTES) return done();
      const out = Buffer.concat(held, bytes);
      held = [];
      bytes = 0;
      done(null, out);
    },
    flush(done) {
      done(null, bytes ? Buffer.concat(held, bytes) : undefined);
    },
  });
}
