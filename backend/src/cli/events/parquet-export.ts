import { existsSync } from 'node:fs';
import { mkdir, readdir, rename, rm, rmdir } from 'node:fs/promises';
import path from 'node:path';
import { type DuckDBAppender, type DuckDBConnection, DuckDBInstance, DuckDBTimestampTZValue } from '@duckdb/node-api';
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
  context: string;
  /** ISO-8601 in UTC, as the log keeps it (`occurredAt`). */
  time: string;
  actor: string;
  /** The event's data as JSON, personal fields already pseudonyms (or in the clear, for an admin). */
  data: string;
}

/** The export's columns, in the order Postgres's COPY writes them (`COPIED_COLUMNS`), with their DuckDB types. */
const TYPES: Record<(typeof COPIED_COLUMNS)[number], string> = {
  commit_position: 'UBIGINT',
  prepare_position: 'UBIGINT',
  stream: 'VARCHAR',
  revision: 'BIGINT',
  type: 'VARCHAR',
  schema_version: 'INTEGER',
  time: 'TIMESTAMPTZ',
  actor: 'VARCHAR',
  data: 'VARCHAR',
  day: 'VARCHAR',
  context: 'VARCHAR',
};
const COLUMNS = COPIED_COLUMNS.map((name) => [name, TYPES[name]] as const);

/**
 * Writes events as Parquet through DuckDB (`@duckdb/node-api`): rows go into an in-memory table (DuckDB spills to
 * disk past its memory limit), then one COPY writes `day=YYYY-MM-DD/context=<name>/*.parquet` (Hive partitioning, which
 * DuckDB, pandas/pyarrow and Spark read as they are). The files are written beside `out` and moved into place at the
 * end: a failed or interrupted export leaves no half-written directory behind.
 */
export class ParquetExport {
  private rows = 0;
  private closed = false;
  private readonly csvFiles: string[] = [];

  private constructor(
    private readonly instance: DuckDBInstance,
    private readonly connection: DuckDBConnection,
    private readonly appender: DuckDBAppender,
    private readonly out: string,
    /** Where the files are written until they are moved to `out`. */
    private readonly partial: string,
  ) {}

  /** `scratch`: a private folder of this export's own (DuckDB spills there past its memory limit). */
  static async open(out: string, scratch: string): Promise<ParquetExport> {
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
    try {
      const instance = await DuckDBInstance.create(':memory:', { temp_directory: path.join(scratch, 'spill') });
      const connection = await instance.connect();
      await connection.run(`create table events (${COLUMNS.map(([name, type]) => `${name} ${type}`).join(', ')})`);
      const appender = await connection.createAppender('events');
      return new ParquetExport(instance, connection, appender, path.resolve(out), partial);
    } catch (error) {
      await rm(partial, { recursive: true, force: true });
      throw error;
    }
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
    a.appendTimestampTZ(new DuckDBTimestampTZValue(BigInt(Date.parse(row.time)) * 1000n));
    a.appendVarchar(row.actor);
    a.appendVarchar(row.data);
    a.appendVarchar(row.time.slice(0, 10)); // the log's times are UTC ISO strings: their date is the UTC day
    a.appendVarchar(row.context);
    a.endRow();
    this.rows++;
  }

  /**
   * Rows from a CSV file in the export's column order (`COPIED_COLUMNS`), as Postgres's COPY writes them: read by
   * DuckDB when the files are written, so the file must stay until `finish` returns.
   */
  addCsv(file: string, rows: number): void {
    if (rows === 0) return;
    this.csvFiles.push(file);
    this.rows += rows;
  }

  /** Writes the files and moves them to `out`; returns the Parquet files written, relative to `out`. */
  async finish(): Promise<string[]> {
    this.appender.closeSync();
    const partial = this.partial;
    try {
      if (this.rows > 0)
        await this.connection.run(
          `copy (
             select * from (${['select * from events', ...this.csvFiles.map((file) => `select * from ${csv(file)}`)].join(' union all ')})
             order by commit_position, prepare_position
           ) to ${quoted(partial)} (format parquet, compression zstd, partition_by (day, context))`,
        );
      // Empty when the export began; anything put in it since is someone's, never deleted (rmdir refuses a full one).
      if (existsSync(this.out))
        await rmdir(this.out).catch((error: NodeJS.ErrnoException) => {
          if (error.code !== 'ENOTEMPTY' && error.code !== 'EEXIST') throw error;
          throw new UsageError(`--out: ${this.out} was written to during the export; nothing in it was replaced`);
        });
      await rename(partial, this.out);
    } catch (error) {
      await rm(partial, { recursive: true, force: true });
      throw error;
    } finally {
      this.close();
    }
    return ((await readdir(this.out, { recursive: true })) as string[]).filter((f) => f.endsWith('.parquet')).sort();
  }

  /** Gives up: nothing written is left behind. */
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

const csv = (file: string) =>
  `read_csv(${quoted(file)}, header = false, auto_detect = false, quote = '"', escape = '"', columns = {${COLUMNS.map(
    ([name, type]) => `'${name}': '${type}'`,
  ).join(', ')}})`;
