import { hostname } from 'node:os';
import { DASH_LOGS_PATH, HEALTH_PATH } from '@serendip/proto';
import type { Db } from '../database/database.js';
import { scrubPersonalData } from './scrub-personal-data.js';

/** One log line as the System Log keeps it (table app_log, migration 0018). */
export interface StoredLogLine {
  loggedAt: Date;
  level: PersistedLevel;
  message: string;
  context: string | null;
  instance: string;
}

export type PersistedLevel = 'info' | 'warn' | 'error' | 'fatal';

/** One multi-row INSERT; rejects when the database cannot take it. */
export type InsertLogLines = (lines: StoredLogLine[]) => Promise<void>;

export interface DatabaseLogSinkOptions {
  /** Which process wrote the lines (default host/pid). */
  instance?: string;
  /** A batch is written as soon as this many lines wait (default 200). */
  batchSize?: number;
  /** ...and at least this often while any wait (default 1 s). */
  flushEveryMs?: number;
  /** Past this many waiting lines, new ones are dropped and counted (default 10,000): memory stays bounded. */
  maxBuffered?: number;
  /**
   * Where the sink says it could not store lines. Never the logger itself: a failing database would feed its own
   * failures back into the buffer. Default: one JSON line on stderr, shaped like pino's.
   */
  report?: (level: 'warn' | 'info', message: string) => void;
}

const PINO_LEVELS: Record<number, PersistedLevel> = { 30: 'info', 40: 'warn', 50: 'error', 60: 'fatal' };
const PERSISTED = new Set<string>(Object.values(PINO_LEVELS));
const MESSAGE_MAX = 2000;
/**
 * Successful reads that would fill the System Log with its own traffic (each page an admin opens, every probe): stdout
 * keeps them, the table does not. Their failures (warn, error) are still stored.
 */
const UNSTORED_READS = new Set([`GET ${DASH_LOGS_PATH}`, `GET ${HEALTH_PATH}`]);

/**
 * A pino destination that copies the process's log lines (info and above) into Postgres for the admin System Log
 * (spec 2). stdout stays the primary log: this copy never blocks a request and never crashes the process. Lines wait
 * in a bounded buffer and go out in one multi-row INSERT per batch (by size or by time); while the database is
 * unreachable a failed batch is dropped and counted (stdout still has it), and the count is stored as a warning once
 * the database answers again. Lines logged before `attach` (start-up, migrations) wait for it.
 */
export class DatabaseLogSink {
  private readonly instance: string;
  private readonly batchSize: number;
  private readonly flushEveryMs: number;
  private readonly maxBuffered: number;
  private readonly report: NonNullable<DatabaseLogSinkOptions['report']>;
  private buffer: StoredLogLine[] = [];
  private insert: InsertLogLines | undefined;
  private timer: NodeJS.Timeout | undefined;
  private flushing: Promise<void> | undefined;
  private closed = false;
  /** Lines lost since the last report: failed batches and a full buffer. */
  private dropped = 0;
  private failing = false;
  private droppedTotal = 0;
  private storedTotal = 0;

  constructor(options: DatabaseLogSinkOptions = {}) {
    this.instance = options.instance ?? `${hostname()}/${process.pid}`;
    this.batchSize = options.batchSize ?? 200;
    this.flushEveryMs = options.flushEveryMs ?? 1000;
    this.maxBuffered = options.maxBuffered ?? 10_000;
    this.report = options.report ?? reportOnStderr;
  }

  /** What pino calls with each serialized line. */
  write(line: string): void {
    if (this.closed) return;
    const stored = this.toStored(line);
    if (!stored) return;
    if (this.buffer.length >= this.maxBuffered) {
      this.dropped += 1;
      this.droppedTotal += 1;
      return;
    }
    this.buffer.push(stored);
    if (this.insert && this.buffer.length >= this.batchSize && !this.flushing) void this.flush();
  }

  /** Starts writing into this database (or through this insert, for tests), now and every flushEveryMs. */
  attach(target: Db | InsertLogLines): void {
    this.insert = typeof target === 'function' ? target : insertInto(target);
    clearInterval(this.timer);
    this.timer = setInterval(() => void this.flush(), this.flushEveryMs);
    this.timer.unref();
    if (this.buffer.length > 0) void this.flush();
  }

  /** Writes every waiting line; one INSERT at a time. Never rejects. */
  flush(): Promise<void> {
    this.flushing ??= this.drain().finally(() => {
      this.flushing = undefined;
    });
    return this.flushing;
  }

  /** Stops the timer and writes what waits; lines logged afterwards go to stdout only. Call before the pool closes. */
  async close(): Promise<void> {
    clearInterval(this.timer);
    this.timer = undefined;
    await this.flush();
    this.closed = true;
    const lost = this.dropped + this.buffer.length;
    if (lost > 0) this.report('warn', `${lost} log lines were not stored in the database`);
    this.buffer = [];
  }

  get stats() {
    return { buffered: this.buffer.length, stored: this.storedTotal, dropped: this.droppedTotal };
  }

  private async drain(): Promise<void> {
    while (this.insert && (this.buffer.length > 0 || this.dropped > 0)) {
      const batch = this.buffer.slice(0, this.batchSize);
      // What was lost is said in the log itself, with the first batch the database takes again.
      const noticeOf = this.dropped;
      const rows = noticeOf > 0 ? [...batch, this.droppedNotice(noticeOf)] : batch;
      try {
        await this.insert(rows);
      } catch (error) {
        this.buffer.splice(0, batch.length);
        this.dropped += batch.length;
        this.droppedTotal += batch.length;
        if (!this.failing) {
          this.failing = true;
          this.report('warn', `log lines not stored in the database (stdout still has them): ${describe(error)}`);
        }
        return;
      }
      this.buffer.splice(0, batch.length);
      this.storedTotal += batch.length;
      this.dropped -= noticeOf;
      if (this.failing) {
        this.failing = false;
        this.report('info', 'log lines are stored in the database again');
      }
    }
  }

  private droppedNotice(count: number): StoredLogLine {
    return {
      loggedAt: new Date(),
      level: 'warn',
      message: `${count} log lines were not stored here while the database was unreachable or the buffer full (stdout has them)`,
      context: 'log-sink',
      instance: this.instance,
    };
  }

  private toStored(line: string): StoredLogLine | undefined {
    let entry: Record<string, unknown>;
    try {
      entry = JSON.parse(line) as Record<string, unknown>;
    } catch {
      return undefined;
    }
    const level = typeof entry.level === 'number' ? PINO_LEVELS[entry.level] : entry.level;
    if (typeof level !== 'string' || !PERSISTED.has(level)) return undefined;
    if (level === 'info' && isUnstoredRead(entry)) return undefined;
    const time = new Date(typeof entry.time === 'string' || typeof entry.time === 'number' ? entry.time : Date.now());
    const context = typeof entry.context === 'string' ? entry.context : entry.component;
    return {
      loggedAt: Number.isNaN(time.getTime()) ? new Date() : time,
      level: level as PersistedLevel,
      // Cut before scrubbing (a guest decides how long a logged path is), with room for a value cut at the edge.
      message: scrubPersonalData(messageOf(entry).slice(0, MESSAGE_MAX + 256)).slice(0, MESSAGE_MAX),
      context: typeof context === 'string' ? context.slice(0, 200) : null,
      instance: this.instance,
    };
  }
}

function isUnstoredRead(entry: Record<string, unknown>): boolean {
  const req = entry.req as { method?: unknown; path?: unknown } | undefined;
  return (
    typeof req?.method === 'string' && typeof req.path === 'string' && UNSTORED_READS.has(`${req.method} ${req.path}`)
  );
}

/**
 * The line as an admin reads it: pino-http's "request completed" says which route and how it ended; an error says
 * what it was. Other fields stay on stdout.
 */
function messageOf(entry: Record<string, unknown>): string {
  let message = typeof entry.msg === 'string' ? entry.msg : '';
  const req = entry.req as { method?: unknown; path?: unknown } | undefined;
  const res = entry.res as { statusCode?: unknown } | undefined;
  if (req && typeof req.method === 'string' && typeof req.path === 'string') {
    message += `: ${req.method} ${req.path}`;
    if (res && typeof res.statusCode === 'number') message += ` ${res.statusCode}`;
    if (typeof entry.responseTime === 'number') message += ` in ${entry.responseTime} ms`;
  }
  const err = entry.err as { type?: unknown; message?: unknown } | string | undefined;
  if (typeof err === 'string') message += ` (${err})`;
  else if (err && typeof err.message === 'string') {
    message += ` (${typeof err.type === 'string' ? `${err.type}: ` : ''}${err.message})`;
  }
  // Postgres text cannot hold NUL.
  return message.replaceAll('\u0000', '');
}

function insertInto(db: Db): InsertLogLines {
  return async (lines) => {
    await db
      .insertInto('app_log')
      .values(
        lines.map((line) => ({
          logged_at: line.loggedAt,
          level: line.level,
          message: line.message,
          context: line.context,
          instance: line.instance,
        })),
      )
      .execute();
  };
}

function reportOnStderr(level: 'warn' | 'info', message: string): void {
  process.stderr.write(
    `${JSON.stringify({ level, time: new Date().toISOString(), component: 'log-sink', msg: message })}\n`,
  );
}

function describe(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  return error.message || (error as { code?: string }).code || error.name;
}
