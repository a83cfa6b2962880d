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
    this.notifier = new CommitNotifier(options.connectionString, CHANNEL, options.logger);
  }

  async append(streamId: string, events: NewEvent[], expected: ExpectedRevision): Promise<AppendResult> {
    if (events.length === 0) throw new Error(`nothing to append to ${streamId}`);
    try {
      return await this.db.transaction().execute(async (trx) => {
        const last = await this.claimRevisions(trx, streamId, BigInt(events.length), expected);
        const first = last - BigInt(events.length) + 1n;
        const rows = await trx
          .insertInto('events')
          .values(
            events.map((e, i) => ({
              id: e.id,
              stream_id: streamId,
              revision: (first + BigInt(i)).toString(),
              type: e.type,
              data: JSON.stringify(e.data),
              metadata: JSON.stringify(e.metadata),
            })),
          )
          .returning(['transaction_id', 'seq'])
          .execute();
        await sql`select pg_notify(${CHANNEL}, '')`.execute(trx);
        const end = rows[rows.length - 1]!;
        return {
          nextExpectedRevision: last,
          position: { commit: BigInt(end.transaction_id), prepare: BigInt(end.seq) },
        };
      });
    } catch (error) {
      // The same events appended again (a retried command): answer as the first time, write nothing.
      if (error instanceof WrongExpectedVersion || isUniqueViolation(error, 'events_id_key')) {
        const earlier = await this.alreadyAppended(streamId, events);
        if (earlier) return earlier;
      }
      throw error;
    }
  }

  /** Moves the stream's revision under a row lock: concurrent appenders to one stream queue up here. */
  private async claimRevisions(trx: Kysely<Database>, streamId: string, count: bigint, expected: ExpectedRevision) {
    let claimed: { revision: string | bigint } | undefined;
    if (expected === 'no-stream') {
      claimed = await trx
        .insertInto('streams')
        .values({ stream_id: streamId, revision: (count - 1n).toString() })
        .onConflict((oc) => oc.column('stream_id').doNothing())
        .returning('revision')
        .executeTakeFirst();
    } else if (expected === 'any') {
      claimed = await trx
        .insertInto('streams')
        .values({ stream_id: streamId, revision: (count - 1n).toString() })
        .onConflict((oc) =>
          oc.column('stream_id').doUpdateSet({ revision: sql`streams.revision + ${count.toString()}::bigint` }),
        )
        .returning('revision')
        .executeTakeFirst();
    } else {
      claimed = await trx
        .updateTable('streams')
        .set({ revision: (expected + count).toString() })
        .where('stream_id', '=', streamId)
        .where('revision', '=', expected.toString())
        .returning('revision')
        .executeTakeFirst();
    }
    if (!claimed) throw new WrongExpectedVersion(streamId, expected, await this.currentRevision(trx, streamId));
    return BigInt(claimed.revision);
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
        else if (lastWake === 'notified' && quickRetries < 6) {
          await sleep(5 * 2 ** quickRetries++, wake.signal);
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
