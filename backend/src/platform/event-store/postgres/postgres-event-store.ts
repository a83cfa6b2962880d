import { type Kysely, sql } from 'kysely';
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
import { CommitNotifier, type Wake } from './commit-notifier.js';

const CHANNEL = 'serendip_events';
const BATCH = 500;
/** A reader held back by a transaction still running (appends are one short statement) looks again this soon. */
const HELD_BACK_RETRY_MS = 3;
const HELD_BACK_RETRIES = 100;

export interface PostgresEventStoreOptions {
  /** For LISTEN/NOTIFY, which needs a connection of its own. */
  connectionString: string;
  logger: Logger;
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
  private readonly pollIntervalMs: number;

  constructor(
    private readonly db: Kysely<Database>,
    options: PostgresEventStoreOptions,
  ) {
    this.pollIntervalMs = options.pollIntervalMs ?? 500;
    this.notifier = new CommitNotifier(db, options.connectionString, CHANNEL, options.logger);
  }

  async append(streamId: string, events: NewEvent[], expected: ExpectedRevision): Promise<AppendResult> {
    if (events.length === 0) throw new Error(`nothing to append to ${streamId}`);
    try {
      const { rows } = await this.appendStatement(streamId, events, expected).execute(this.db);
      if (rows.length === 0)
        throw new WrongExpectedVersion(streamId, expected, await this.currentRevision(this.db, streamId));
      this.notifier.announce();
      const end = rows[rows.length - 1]!;
      return {
        nextExpectedRevision: BigInt(end.revision),
        position: { commit: BigInt(end.transaction_id), prepare: BigInt(end.seq) },
      };
    } catch (error) {
      // The same events appended again (a retried command): answer as the first time, write nothing.
      if (error instanceof WrongExpectedVersion || isUniqueViolation(error, 'events_id_key')) {
        const earlier = await this.alreadyAppended(streamId, events);
        if (earlier) return earlier;
      }
      throw error;
    }
  }

  /**
   * One statement, so one round trip and its own transaction: claim the revisions on the stream's row (a row
   * lock: concurrent appenders to one stream queue there, and a stale expectation claims nothing), then insert
   * the events numbered from the claim. No row back means the expectation did not hold.
   */
  private appendStatement(streamId: string, events: NewEvent[], expected: ExpectedRevision) {
    const count = events.length;
    const claim =
      expected === 'no-stream'
        ? sql`insert into streams (stream_id, revision) values (${streamId}, ${count - 1})
              on conflict (stream_id) do nothing returning revision`
        : expected === 'any'
          ? sql`insert into streams (stream_id, revision) values (${streamId}, ${count - 1})
                on conflict (stream_id) do update set revision = streams.revision + ${count} returning revision`
          : sql`update streams set revision = revision + ${count}
                where stream_id = ${streamId} and revision = ${expected.toString()}::bigint returning revision`;
    const ids = events.map((e) => e.id);
    const types = events.map((e) => e.type);
    const data = events.map((e) => JSON.stringify(e.data));
    const metadata = events.map((e) => JSON.stringify(e.metadata));
    return sql<{ transaction_id: string; seq: string; revision: string }>`
      with claimed as (${claim}),
      inserted as (
        insert into events (id, stream_id, revision, type, data, metadata)
        select e.id, ${streamId}, claimed.revision - ${count} + e.i, e.type, e.data, e.metadata
        from claimed,
          unnest(${ids}::uuid[], ${types}::text[], ${data}::jsonb[], ${metadata}::jsonb[])
            with ordinality as e(id, type, data, metadata, i)
        returning transaction_id, seq, revision
      )
      select transaction_id::text, seq::text, revision::text from inserted order by seq`;
  }

  private async currentRevision(db: Kysely<Database>, streamId: string): Promise<bigint | 'no-stream'> {
    const row = await db.selectFrom('streams').select('revision').where('stream_id', '=', streamId).executeTakeFirst();
    return row ? BigInt(row.revision) : 'no-stream';
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
      while (!stopped) {
        const seen = this.notifier.generation;
        const batch = await this.readAll({ after: position, maxCount: BATCH });
        for (const event of batch) {
          if (stopped) return;
          await onEvent(event);
          position = event.position;
        }
        if (batch.length === BATCH || stopped) continue;
        if (batch.length > 0) quickRetries = 0;
        // NOTE: a commit was announced but an older transaction still holds readers back: look again soon
        // rather than after a whole poll interval.
        else if (lastWake === 'notified' && quickRetries++ < HELD_BACK_RETRIES) {
          await sleep(HELD_BACK_RETRY_MS, wake.signal);
          continue;
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

  async close(): Promise<void> {
    await this.notifier.close();
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

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const onAbort = () => {
      clearTimeout(timer);
      resolve();
    };
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal.addEventListener('abort', onAbort, { once: true });
  });
}

function isUniqueViolation(error: unknown, constraint: string): boolean {
  const e = error as { code?: string; constraint?: string };
  return e?.code === '23505' && e.constraint === constraint;
}
