import { once } from 'node:events';
import { createWriteStream, existsSync } from 'node:fs';
import { mkdir, readdir, rename, rm, rmdir } from 'node:fs/promises';
import path from 'node:path';
import type { Writable } from 'node:stream';
import { finished } from 'node:stream/promises';
import { DuckDBInstance } from '@duckdb/node-api';
import type { Position } from '../../platform/event-store/event-store.js';
import { COPIED_COLUMNS } from '../../platform/event-store/postgres/copy-events.js';
import { UsageError } from './event-query.js';

/** One event as a row of the export: the NDJSON line's fields, with the data as JSON text. */
export interface ExportRow {
  position: Position;
  stream: string;
  revision: bigint;
  type: string;
  version: number;
  /** ISO-8601 in UTC, as the log keeps it (`occurredAt`). */
  time: string;
  actor: string;
  /** The event's data as JSON, personal fields already pseudonyms (or in the clear, for an admin). */
  data: string;
}

/** The columns of every source, as Postgres's COPY writes them (`COPIED_COLUMNS`), with the types DuckDB reads. */
const CSV_TYPES: Record<(typeof COPIED_COLUMNS)[number], string> = {
  commit_position: 'UBIGINT',
  prepare_position: 'UBIGINT',
  stream: 'VARCHAR',
  revision: 'BIGINT',
  type: 'VARCHAR',
  schema_version: 'INTEGER',
  time: 'VARCHAR', // the ISO text as stored: its first ten characters are the UTC day
  actor: 'VARCHAR',
  data: 'VARCHAR',
};

/**
 * Writes events as Parquet through DuckDB (`@duckdb/node-api`). Every source is a CSV file in the export's scratch
 * folder: one per share of Postgres's COPY (`copyTargets`), and one of the rows this process `append`s. At the end one
 * DuckDB COPY reads them all and writes `day=YYYY-MM-DD/context=<name>/*.parquet` (Hive partitioning, which DuckDB,
 * pandas/pyarrow and Spark read as they are). The files are written beside `out` and moved into place at the end: a
 * failed or interrupted export leaves no half-written directory behind.
 */
export class ParquetExport {
  private rows = 0;
  private held: string[] = [];

  private constructor(
    /** Postgres's COPY writes a share of the rows into each (CSV of `COPIED_COLUMNS`) and ends it. */
    readonly copyTargets: readonly Writable[],
    private readonly appended: Writable,
    private readonly sources: readonly string[],
    private readonly contextOf: ReadonlyMap<string, string>,
    private readonly scratch: string,
    private readonly out: string,
    /** Where the files are written until they are moved to `out`. */
    private readonly partial: string,
  ) {}

  /**
   * `scratch`: a private folder of this export's own (its CSV files, and where DuckDB spills past its memory limit);
   * `contextOf`: each event type's context; `copies`: how many shares Postgres's COPY writes.
   */
  static async open(
    out: string,
    scratch: string,
    contextOf: ReadonlyMap<string, string>,
    copies: number,
  ): Promise<ParquetExport> {
    if (existsSync(out) && (await readdir(out)).length > 0)
      throw new UsageError(`--out: ${out} is not empty; name a new directory`);
    // Made first, beside `out`: a directory that cannot be written fails now, not after the whole export.
    const partial = `${path.resolve(out)}.partial-${process.pid}`;
    try {
      await mkdir(path.dirname(partial), { recursive: true });
      await rm(partial, { recursive: true, force: true });
      // Only its owner may read an export: it is the log, personal fields in the clear if an admin asked.
      await mkdir(partial, { mode: 0o700 });
    } catch (error) {
      throw new UsageError(`--out: cannot write beside ${out} (${(error as NodeJS.ErrnoException).code ?? 'error'})`);
    }
    await mkdir(scratch, { recursive: true });
    const sources = Array.from({ length: copies + 1 }, (_, i) => path.join(scratch, `source-${i}.csv`));
    const streams = sources.map((file) => createWriteStream(file, { mode: 0o600 }));
    return new ParquetExport(
      streams.slice(0, copies),
      streams[copies]!,
      sources,
      contextOf,
      scratch,
      path.resolve(out),
      partial,
    );
  }

  get count(): number {
    return this.rows;
  }

  /** A row to write: held until `flush`. */
  append(row: ExportRow): void {
    this.held.push(
      `${row.position.commit},${row.position.prepare},${csvText(row.stream)},${row.revision},${csvText(row.type)},` +
        `${row.version},${csvText(row.time)},${csvText(row.actor)},${csvText(row.data)}\n`,
    );
    this.rows++;
  }

  /** Writes the rows appended so far; resolves when the file takes more. */
  async flush(): Promise<void> {
    if (!this.held.length) return;
    const text = this.held.join('');
    this.held = [];
    if (!this.appended.write(text)) await once(this.appended, 'drain');
  }

  /** Rows Postgres's COPY wrote to `copyTargets`, counted. */
  addCopied(rows: number): void {
    this.rows += rows;
  }

  /**
   * Once every copy target has ended: writes the files and moves them to `out`; returns the Parquet files written,
   * relative to `out`.
   */
  async finish(): Promise<string[]> {
    const partial = this.partial;
    try {
      await this.flush();
      await finished(this.appended.end());
      if (this.rows > 0) await this.write();
      // Empty when the export began; anything put in it since is someone's, never deleted (rmdir refuses a full one).
      if (existsSync(this.out))
        await rmdir(this.out).catch((error: NodeJS.ErrnoException) => {
          if (error.code !== 'ENOTEMPTY' && error.code !== 'EEXIST') throw error;
          throw new UsageError(`--out: ${this.out} was written to during the export; nothing in it was replaced`);
        });
      await rename(partial, this.out);
    } catch (error) {
      await this.abandon();
      throw error;
    }
    return ((await readdir(this.out, { recursive: true })) as string[]).filter((f) => f.endsWith('.parquet')).sort();
  }

  /** Gives up: nothing written is left behind. */
  async abandon(): Promise<void> {
    for (const stream of [...this.copyTargets, this.appended]) stream.destroy();
    await rm(this.partial, { recursive: true, force: true });
  }

  private async write(): Promise<void> {
    const instance = await DuckDBInstance.create(':memory:', { temp_directory: path.join(this.scratch, 'spill') });
    const connection = await instance.connect();
    try {
      await connection.run('create table contexts (type varchar primary key, context varchar)');
      const contexts = await connection.createAppender('contexts');
      for (const [type, context] of this.contextOf) {
        contexts.appendVarchar(type);
        contexts.appendVarchar(context);
        contexts.endRow();
      }
      contexts.closeSync();
      // Not sorted (readers order by commit_position, prepare_position): sorting would add a fifth to this step.
      // zstd's fastest level: a sixth faster than its default, the files a few percent larger.
      await connection.run(
        `copy (${fromCsv(this.sources)}) to ${quoted(this.partial)}
         (format parquet, compression zstd, compression_level 1, partition_by (day, context))`,
      );
    } finally {
      connection.closeSync();
      instance.closeSync();
    }
  }
}

const quoted = (text: string) => `'${text.replaceAll("'", "''")}'`;

/** A CSV field as Postgres's COPY writes one: in quotes, a quote doubled. */
const csvText = (text: string) => `"${text.replaceAll('"', '""')}"`;

/** The rows of the sources in the export's columns: the time as a time, the day and the context worked out. */
const fromCsv = (files: readonly string[]) =>
  `select commit_position, prepare_position, stream, revision, type, schema_version, time::timestamptz as time, actor,
          data, left(time, 10) as day, coalesce(contexts.context, 'unknown') as context
   from read_csv([${files.map(quoted).join(', ')}], header = false, auto_detect = false, quote = '"', escape = '"',
                 columns = {${Object.entries(CSV_TYPES)
                   .map(([name, type]) => `'${name}': '${type}'`)
                   .join(', ')}})
   left join contexts using (type)`;
