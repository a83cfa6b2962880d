import { type Kysely, sql } from 'kysely';
import pg from 'pg';
import type { Logger } from 'pino';
import type { Database } from '../../database/schema.js';
import {
  type AllSubscription,
  type AppendResult,
  type EventMetadata,
  type EventStore,
  type ExpectedRevision,
  type NewEvent,
  type Position,
  type ReadAllOptions,
  type ReadStreamOptions,
  type RecordedEvent,
  START,
  type SubscribeToAllOptions,
  WrongExpectedVersion,
} from '../event-store.js';
import { sleep } from '../../shared/backoff.js';
import { CommitNotifier, type Wake } from './commit-notifier.js';

const CHANNEL = 'serendip_events';
const BATCH = 500;
const ANY_RETRIES = 20;

const appendSql = (holds: string) => `
  with current as (select max(revision) as revision from events where stream_id = $1)
  insert into events (id, stream_id, revision, type, data, metadata)
  select e.id, $1, coalesce(current.revision, -1) + e.i, e.type, e.data, e.metadata
  from current, unnest($2::uuid[], $3::text[], $4::jsonb[], $5::jsonb[]) with ordinality as e(id, type, data, metadata, i)
  where ${holds}
  order by e.i
  returning transaction_id::text, seq::text, revision::text`;
const APPEND_SQL = {
  no_stream: appendSql('current.revision is null'),
  any: appendSql('true'),
  exact: appendSql('current.revision = $6::bigint'),
};

interface AppendedRow {
  transaction_id: string;
  seq: string;
  revision: string;
}
/** A reader held back by a transaction still running (appends are one short statement) looks again this soon. */
const HELD_BACK_RETRY_MS = 3;
const HELD_BACK_RETRIES = 100;
const HELD_BACK_WARNING_MS = 10_000;

export interface PostgresEventStoreOptions {
  /** For LISTEN/NOTIFY, which needs a connection of its own. */
  connectionString: string;
  logger: Logger;
  /** Connections for appends (default 10). */
  poolSize?: number;
  /** The fallback when no notification comes (lost connection, a transaction that held readers back). */
  pollIntervalMs?: number;
}

interface EventRow {
  seq: string;
  transaction_id: string;
  id: string;
  stream_id: string;
  revision: string;
  type: string;
  data: unknown;
  metadata: unknown;
}

/**
 * The default event store. Global order is (transaction id, sequence): readers of all events see only
 * transactions older than the oldest one still running, so none that commits late is ever skipped.
 */
export class PostgresEventStore implements EventStore {
  private readonly notifier: CommitNotifier;
  private readonly logger: Logger;
  private lastHeldBackWarning = 0;
  /** Appends run here, as prepared statements (kysely cannot name a statement). */
  private readonly pool: pg.Pool;
  private readonly pollIntervalMs: number;

  constructor(
    private readonly db: Kysely<Database>,
    options: PostgresEventStoreOptions,
  ) {
    this.pollIntervalMs = options.pollIntervalMs ?? 500;
    this.logger = options.logger;
    this.pool = new pg.Pool({ connectionString: options.connectionString, max: options.poolSize ?? 10 });
    this.pool.on('error', (error) => options.logger.warn({ err: error.message }, 'idle event-store connection lost'));
    this.pool.on('connect', (client) =>
      client.on('error', (error) => options.logger.warn({ err: error.message }, 'event-store connection lost')),
    );
    this.notifier = new CommitNotifier(db, options.connectionString, CHANNEL, options.logger);
  }

  async append(streamId: string, events: NewEvent[], expected: ExpectedRevision): Promise<AppendResult> {
    if (events.length === 0) throw new Error(`nothing to append to ${streamId}`);
    for (let attempt = 1; ; attempt++) {
      try {
        const { rows } = await this.pool.query<AppendedRow>(this.appendStatement(streamId, events, expected));
        if (rows.length === 0) throw await this.wrongExpectedVersion(streamId, expected);
        this.notifier.announce();
        const end = rows[rows.length - 1]!;
        return {
          nextExpectedRevision: BigInt(end.revision),
          position: { commit: BigInt(end.transaction_id), prepare: BigInt(end.seq) },
        };
      } catch (error) {
        // Another append took the same revision first: with `any`, simply take the next one.
        if (isUniqueViolation(error, 'events_stream_revision') && expected === 'any' && attempt < ANY_RETRIES) continue;
        const failure = isUniqueViolation(error, 'events_stream_revision')
          ? await this.wrongExpectedVersion(streamId, expected)
          : error;
        // The same events appended again (a retried command): answer as the first time, write nothing.
        if (failure instanceof WrongExpectedVersion || isUniqueViolation(failure, 'events_id_key')) {
          const earlier = await this.alreadyAppended(streamId, events);
          if (earlier) return earlier;
        }
        throw failure;
      }
    }
  }

  /**
   * One statement, so one round trip and its own transaction. It numbers the events after the stream's
   * current last revision, if that is what the caller expected; the unique (stream, revision) index makes a
   * concurrent append of the same revisions fail. No row back means the expectation did not hold. Named, so
   * each connection plans it once: this alone is most of the cost of an append.
   */
  private appendStatement(streamId: string, events: NewEvent[], expected: ExpectedRevision) {
    const kind = expected === 'no-stream' ? 'no_stream' : expected === 'any' ? 'any' : 'exact';
    const values: unknown[] = [
      streamId,
      events.map((e) => e.id),
      events.map((e) => e.type),
      events.map((e) => JSON.stringify(e.data)),
      events.map((e) => JSON.stringify(e.metadata)),
    ];
    if (kind === 'exact') values.push((expected as bigint).toString());
    return { name: `serendip_append_${kind}`, text: APPEND_SQL[kind], values };
  }

  private async wrongExpectedVersion(streamId: string, expected: ExpectedRevision): Promise<WrongExpectedVersion> {
    const row = await this.db
      .selectFrom('events')
      .select(sql<string | null>`max(revision)::text`.as('revision'))
      .where('stream_id', '=', streamId)
      .executeTakeFirst();
    return new WrongExpectedVersion(
      streamId,
      expected,
      row?.revision === null || row?.revision === undefined ? 'no-stream' : BigInt(row.revision),
    );
  }

  private async alreadyAppended(streamId: string, events: NewEvent[]): Promise<AppendResult | undefined> {
    const rows = await this.selectEvents()
      .where(
        'id',
        'in',
        events.map((e) => e.id),
      )
      .orderBy(sql`events.seq`)
      .execute();
    if (rows.length !== events.length || rows.some((r) => r.stream_id !== streamId)) return undefined;
    const last = toRecorded(rows[rows.length - 1]!);
    return { nextExpectedRevision: last.revision, position: last.position };
  }

  /**
   * The log's order rests on transaction ids only growing. A log restored into another cluster (pg_dump and
   * restore) can hold ids ahead of the new cluster's: readers would then pass over every new event, forever.
   */
  async checkTransactionIds(): Promise<void> {
    const { rows } = await sql<{ ok: boolean }>`
      select coalesce((select max(transaction_id) from events) < pg_snapshot_xmax(pg_current_snapshot()), true) as ok`.execute(
      this.db,
    );
    if (!rows[0]?.ok) {
      throw new Error(
        'the events table holds transaction ids ahead of this Postgres cluster (was it restored from a dump?); ' +
          'new events would be invisible to readers: restore with the cluster (pg_basebackup) or replay the log into a fresh store',
      );
    }
  }

  async readStream(streamId: string, options: ReadStreamOptions = {}): Promise<RecordedEvent[]> {
    const backwards = options.direction === 'backwards';
    let query = this.selectEvents().where('stream_id', '=', streamId);
    if (options.fromRevision !== undefined) {
      query = query.where('revision', backwards ? '<=' : '>=', options.fromRevision.toString());
    }
    query = query.orderBy(sql`events.revision`, backwards ? 'desc' : 'asc');
    if (options.maxCount !== undefined) query = query.limit(options.maxCount);
    return (await query.execute()).map(toRecorded);
  }

  async readAll(options: ReadAllOptions = {}): Promise<RecordedEvent[]> {
    const after = options.after ?? START;
    const rows = await this.selectEvents()
      .where(
        sql<boolean>`(transaction_id, seq) > (${after.commit.toString()}::xid8, ${after.prepare.toString()}::bigint)`,
      )
      // Only transactions older than every running one: what is visible now can no longer change.
      .where(sql<boolean>`transaction_id < pg_snapshot_xmin(pg_current_snapshot())`)
      .$if(options.types !== undefined, (q) => q.where('type', '=', sql<string>`any(${[...options.types!]})`))
      // Qualified: the selected columns are text aliases of the same names.
      .orderBy(sql`events.transaction_id`)
      .orderBy(sql`events.seq`)
      .limit(options.maxCount ?? BATCH)
      .execute();
    return rows.map(toRecorded);
  }

  subscribeToAll({ after = START, onEvent, onError }: SubscribeToAllOptions): AllSubscription {
    let stopped = false;
    const wake = new AbortController();
    const run = async () => {
      let position = after;
      let lastWake: Wake = 'timeout';
      let quickRetries = 0;
      let heldSince: number | undefined;
      while (!stopped) {
        const seen = this.notifier.generation;
        const batch = await this.readAll({ after: position, maxCount: BATCH });
        for (const event of batch) {
          if (stopped) return;
          await onEvent(event);
          position = event.position;
        }
        if (batch.length === BATCH || stopped) continue;
        if (batch.length > 0) {
          quickRetries = 0;
          heldSince = undefined;
        } else if (lastWake === 'notified') {
          // NOTE: a commit was announced but an older transaction still holds readers back: look again soon
          // rather than after a whole poll interval, and say so if it lasts.
          if (quickRetries < HELD_BACK_RETRIES) {
            quickRetries++;
            await sleep(HELD_BACK_RETRY_MS, wake.signal);
            continue;
          }
          this.warnIfHeldBack((heldSince ??= Date.now()));
        }
        lastWake = await this.notifier.next(seen, this.pollIntervalMs, wake.signal);
      }
    };
    const running = run().catch((error: unknown) => {
      stopped = true;
      onError?.(error);
    });
    return {
      stop: async () => {
        stopped = true;
        wake.abort();
        await running;
      },
    };
  }

  /**
   * Appends were announced but stay invisible: a transaction that started before them is still open somewhere
   * in the cluster (an idle session in a transaction, say). Say so, once a while, with who holds it.
   */
  private warnIfHeldBack(since: number): void {
    if (Date.now() - since < HELD_BACK_WARNING_MS || Date.now() - this.lastHeldBackWarning < HELD_BACK_WARNING_MS)
      return;
    this.lastHeldBackWarning = Date.now();
    void sql<{ pid: number; datname: string; state: string; seconds: number }>`
      select pid, datname, state, extract(epoch from now() - xact_start)::int as seconds from pg_stat_activity
      where backend_xid is not null or backend_xmin is not null order by xact_start limit 1`
      .execute(this.db)
      .then(({ rows }) =>
        this.logger.warn(
          { oldestTransaction: rows[0], heldForMs: Date.now() - since },
          'readers of the event log are held back by a long transaction; consider idle_in_transaction_session_timeout',
        ),
      )
      .catch(() => undefined);
  }

  async close(): Promise<void> {
    await this.notifier.close();
    await this.pool.end();
  }

  private selectEvents() {
    return this.db
      .selectFrom('events')
      .select([
        sql<string>`seq::text`.as('seq'),
        sql<string>`transaction_id::text`.as('transaction_id'),
        'id',
        'stream_id',
        sql<string>`revision::text`.as('revision'),
        'type',
        'data',
        'metadata',
      ]);
  }
}

function toRecorded(row: EventRow): RecordedEvent {
  return {
    id: row.id,
    streamId: row.stream_id,
    revision: BigInt(row.revision),
    type: row.type,
    data: row.data,
    metadata: row.metadata as EventMetadata,
    position: { commit: BigInt(row.transaction_id), prepare: BigInt(row.seq) } satisfies Position,
  };
}

function isUniqueViolation(error: unknown, constraint: string): boolean {
  const e = error as { code?: string; constraint?: string };
  return e?.code === '23505' && e.constraint === constraint;
}
