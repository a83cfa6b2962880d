import { existsSync } from 'node:fs';
import { mkdir, readdir, rename, rm, rmdir } from 'node:fs/promises';
import path from 'node:path';
import { type DuckDBAppender, type DuckDBConnection, DuckDBInstance } from '@duckdb/node-api';
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

/** The columns of every source, as Postgres's COPY writes them (`COPIED_COLUMNS`), with the types DuckDB reads them as. */
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
 * Writes events as Parquet through DuckDB (`@duckdb/node-api`). Rows this process `append`s (opened or upcast: personal
 * fields, maybe in the clear for an admin) go into an in-memory table, never to a file of their own (DuckDB spills to
 * its private folder only past its memory limit); Postgres's COPY writes its shares of the rest as CSV files
 * (`csvFiles`). At the end one DuckDB COPY reads both and writes `day=YYYY-MM-DD/context=<name>/*.parquet` (Hive
 * partitioning, which DuckDB, pandas/pyarrow and Spark read as they are). The files are written beside `out` and moved
 * into place at the end: a failed or interrupted export leaves no half-written directory behind.
 */
export class ParquetExport {
  private rows = 0;
  private closed = false;

  private constructor(
    private readonly instance: DuckDBInstance,
    private readonly connection: DuckDBConnection,
    private readonly appender: DuckDBAppender,
    /** Postgres's COPY writes a share of the rows into each (CSV of `COPIED_COLUMNS`), in the scratch folder. */
    readonly csvFiles: readonly string[],
    private readonly out: string,
    /** Where the files are written until they are moved to `out`. */
    private readonly partial: string,
  ) {}

  /**
   * `scratch`: a private folder of this export's own (the COPY's CSV files, and where DuckDB spills past its memory
   * limit); `contextOf`: each event type's context; `copies`: how many shares Postgres's COPY writes.
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
    const partial = ParquetExport.partialOf(out);
    try {
      await mkdir(path.dirname(partial), { recursive: true });
      await rm(partial, { recursive: true, force: true });
      // Only its owner may read an export: it is the log, personal fields in the clear if an admin asked.
      await mkdir(partial, { mode: 0o700 });
    } catch (error) {
      throw new UsageError(`--out: cannot write beside ${out} (${(error as NodeJS.ErrnoException).code ?? 'error'})`);
    }
    try {
      await mkdir(scratch, { recursive: true, mode: 0o700 });
      const instance = await DuckDBInstance.create(':memory:', { temp_directory: path.join(scratch, 'spill') });
      const connection = await instance.connect();
      await connection.run(
        `create table events (${Object.entries(CSV_TYPES)
          .map(([name, type]) => `${name} ${type}`)
          .join(', ')})`,
      );
      await connection.run('create table contexts (type varchar primary key, context varchar)');
      const contexts = await connection.createAppender('contexts');
      for (const [type, context] of contextOf) {
        contexts.appendVarchar(type);
        contexts.appendVarchar(context);
        contexts.endRow();
      }
      contexts.closeSync();
      const appender = await connection.createAppender('events');
      const csvFiles = Array.from({ length: copies }, (_, i) => path.join(scratch, `copy-${i}.csv`));
      return new ParquetExport(instance, connection, appender, csvFiles, path.resolve(out), partial);
    } catch (error) {
      await rm(partial, { recursive: true, force: true });
      throw error;
    }
  }

  /** Where an export to `out` by this process is written until it is complete. */
  static partialOf(out: string): string {
    return `${path.resolve(out)}.partial-${process.pid}`;
  }

  get count(): number {
    return this.rows;
  }

  append(row: ExportRow): void {
    const a = this.appender;
    a.appendUBigInt(row.position.commit);
    a.appendUBigInt(row.position.prepare);
    a.appendVarchar(row.stream);
    a.appendBigInt(row.revision);
    a.appendVarchar(row.type);
    a.appendInteger(row.version);
    a.appendVarchar(row.time);
    a.appendVarchar(row.actor);
    a.appendVarchar(row.data);
    a.endRow();
    this.rows++;
  }

  /** Rows Postgres's COPY wrote to `csvFiles`, counted. */
  addCopied(rows: number): void {
    this.rows += rows;
  }

  /**
   * Once every CSV file is whole: writes the files and moves them to `out`; returns the Parquet files written,
   * relative to `out`.
   */
  async finish(): Promise<string[]> {
    const partial = this.partial;
    try {
      this.appender.closeSync();
      // Not sorted (readers order by commit_position, prepare_position): sorting would add a fifth to this step.
      // zstd's fastest level: a sixth faster than its default, the files a few percent larger.
      if (this.rows > 0)
        await this.connection.run(
          `copy (${exported(this.csvFiles)}) to ${quoted(partial)}
           (format parquet, compression zstd, compression_level 1, partition_by (day, context))`,
        );
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
    } finally {
      this.close();
    }
    return ((await readdir(this.out, { recursive: true })) as string[]).filter((f) => f.endsWith('.parquet')).sort();
  }

  /** Gives up: nothing written is left behind (the caller removes the scratch folder). */
  async abandon(): Promise<void> {
    this.close();
    await rm(this.partial, { recursive: true, force: true });
  }

  private close(): void {
    if (this.closed) return;
    this.closed = true;
    this.connection.closeSync();
    this.instance.closeSync();
  }
}

const quoted = (text: string) => `'${text.replaceAll("'", "''")}'`;

/**
 * The rows appended and those of the CSV files, in the export's columns: the time as a time, the day and the context
 * worked out. The CSV as Postgres writes it: "" is an empty text, an empty field NULL; a quoted field may hold new lines.
 */
const exported = (files: readonly string[]) => {
  const columns = `{${Object.entries(CSV_TYPES)
    .map(([name, type]) => `'${name}': '${type}'`)
    .join(', ')}}`;
  const sources = [
    'select * from events',
    ...(files.length
      ? [
          `select * from read_csv([${files.map(quoted).join(', ')}], header = false, auto_detect = false, quote = '"',
             escape = '"', allow_quoted_nulls = false, new_line = '\\n', max_line_size = ${MAX_LINE_BYTES},
             buffer_size = ${2 * MAX_LINE_BYTES},
             columns = ${columns})`,
        ]
      : []),
  ];
  return `select commit_position, prepare_position, stream, revision, type, schema_version, time::timestamptz as time,
                 actor, data, left(time, 10) as day, coalesce(contexts.context, 'unknown') as context
          from (${sources.join(' union all ')}) left join contexts using (type)`;
};

/** Far more than any event of the log holds (DuckDB's own limit, 2 MB, is not); DuckDB reads twice that at a time. */
const MAX_LINE_BYTES = 16 << 20;
