import {
  type AppendResult as EsdbAppendResult,
  BACKWARDS,
  END,
  EventStoreDBClient,
  excludeSystemEvents,
  FORWARDS,
  type ResolvedEvent,
  START as STREAM_START,
  StreamNotFoundError,
  WrongExpectedVersionError,
} from '@eventstore/db-client';
import {
  type AllSubscription,
  type AppendResult,
  type EventStore,
  type ExpectedRevision,
  type NewEvent,
  type ReadAllOptions,
  type ReadStreamOptions,
  type RecordedEvent,
  type SubscribeToAllOptions,
  WrongExpectedVersion,
} from '../event-store.js';
import {
  isAfter,
  isDomainEvent,
  toActualRevision,
  toEsdbExpectedRevision,
  toEventData,
  toLogPosition,
  toRecordedEvent,
} from './esdb-mapping.js';

/** Same page size as the Postgres adapter when the caller gives no maxCount. */
const PAGE = 500;

export interface EsdbConnectOptions {
  /** How long connect() waits for the server to answer before giving up. */
  timeoutMs?: number;
}

/**
 * The event store on EventStoreDB (KurrentDB), chosen when EVENTSTORE_URL is set. The server keeps the global
 * order, optimistic concurrency and idempotent re-appends; this adapter translates and hides system events.
 */
export class EsdbEventStore implements EventStore {
  private readonly subscriptions = new Set<AllSubscription>();

  constructor(private readonly client: EventStoreDBClient) {}

  /** Connects and checks that the server answers, so a wrong EVENTSTORE_URL fails at boot with a clear error. */
  static async connect(url: string, { timeoutMs = 10_000 }: EsdbConnectOptions = {}): Promise<EsdbEventStore> {
    const client = EventStoreDBClient.connectionString(url);
    let timer: NodeJS.Timeout | undefined;
    try {
      const timeout = new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`no answer within ${timeoutMs} ms`)), timeoutMs);
      });
      // Any stream will do: reading a missing one proves the server answers, and needs no special rights.
      const probe = drain(client.readStream('serendip-connection-check', { maxCount: 1 })).catch((error: unknown) => {
        if (!(error instanceof StreamNotFoundError)) throw error;
      });
      await Promise.race([probe, timeout]);
    } catch (error) {
      await client.dispose().catch(() => undefined);
      const reason = error instanceof Error ? error.message : String(error);
      throw new Error(`cannot reach EventStoreDB at ${withoutCredentials(url)}: ${reason}`, { cause: error });
    } finally {
      clearTimeout(timer);
    }
    return new EsdbEventStore(client);
  }

  async append(streamId: string, events: NewEvent[], expected: ExpectedRevision): Promise<AppendResult> {
    if (events.length === 0) throw new Error(`nothing to append to ${streamId}`);
    let result: EsdbAppendResult;
    try {
      result = await this.client.appendToStream(streamId, events.map(toEventData), {
        expectedRevision: toEsdbExpectedRevision(expected),
      });
    } catch (error) {
      if (!(error instanceof WrongExpectedVersionError)) throw error;
      // The server answers a retried append as done itself; this covers a retry it no longer recognises.
      const earlier = await this.alreadyAppended(streamId, events, expected);
      if (earlier) return earlier;
      throw new WrongExpectedVersion(streamId, expected, toActualRevision(error.actualVersion));
    }
    // Only with throwOnAppendFailure=false in the connection string; the client then reports no revision.
    if (!result.success) throw new WrongExpectedVersion(streamId, expected, await this.lastRevision(streamId));
    const nextExpectedRevision = result.nextExpectedRevision;
    // NOTE: a retry the server recognised comes back without a position, and for several events the server's
    // position need not be the last event's own; callers compare it with subscription positions, so read that.
    const position =
      events.length === 1 && result.position
        ? result.position
        : (await this.eventAt(streamId, nextExpectedRevision))?.position;
    if (!position) throw new Error(`EventStoreDB gave no position for ${streamId}@${nextExpectedRevision}`);
    return { nextExpectedRevision, position: { commit: position.commit, prepare: position.prepare } };
  }

  /** The same events already stored right after `expected` (a retried command): the first append's result. */
  private async alreadyAppended(streamId: string, events: NewEvent[], expected: ExpectedRevision) {
    if (expected === 'any') return undefined;
    const first = expected === 'no-stream' ? 0n : expected + 1n;
    const stored = await this.readStream(streamId, { fromRevision: first, maxCount: events.length });
    if (stored.length !== events.length || stored.some((e, i) => e.id !== events[i]!.id)) return undefined;
    const last = stored[stored.length - 1]!;
    return { nextExpectedRevision: last.revision, position: last.position };
  }

  private async lastRevision(streamId: string): Promise<bigint | 'no-stream'> {
    const [last] = await this.readStream(streamId, { direction: 'backwards', maxCount: 1 });
    return last ? last.revision : 'no-stream';
  }

  private async eventAt(streamId: string, revision: bigint): Promise<RecordedEvent | undefined> {
    return (await this.readStream(streamId, { fromRevision: revision, maxCount: 1 }))[0];
  }

  async readStream(streamId: string, options: ReadStreamOptions = {}): Promise<RecordedEvent[]> {
    const backwards = options.direction === 'backwards';
    if (options.maxCount === 0) return [];
    try {
      const read = this.client.readStream(streamId, {
        direction: backwards ? BACKWARDS : FORWARDS,
        fromRevision: options.fromRevision ?? (backwards ? END : STREAM_START),
        maxCount: options.maxCount,
      });
      const out: RecordedEvent[] = [];
      for (const resolved of await drain<ResolvedEvent>(read)) {
        if (resolved.event) out.push(toRecordedEvent(resolved.event));
      }
      return out;
    } catch (error) {
      if (error instanceof StreamNotFoundError) return [];
      throw error;
    }
  }

  async readAll({ after, maxCount = PAGE, types }: ReadAllOptions = {}): Promise<RecordedEvent[]> {
    const wanted = types && new Set(types);
    const out: RecordedEvent[] = [];
    let from = after;
    // System events share the log with ours: keep reading pages until maxCount of ours or the end of the log.
    while (out.length < maxCount) {
      // One more than needed: the read starts with the event at `from` itself, which is excluded (and a page
      // of one would never get past it).
      const pageSize = maxCount - out.length + 1;
      const page = await drain(this.client.readAll({ fromPosition: toLogPosition(from), maxCount: pageSize }));
      for (const { event } of page) {
        if (event && isAfter(event.position, from) && isDomainEvent(event) && (!wanted || wanted.has(event.type)))
          out.push(toRecordedEvent(event));
      }
      const last = page[page.length - 1]?.event?.position;
      if (page.length < pageSize || !last) break;
      from = last;
    }
    return out.slice(0, maxCount);
  }

  subscribeToAll({ after, onEvent, onError }: SubscribeToAllOptions): AllSubscription {
    // The server starts a subscription strictly after `fromPosition`, as our `after` means; the filter keeps
    // system events on the server.
    const stream = this.client.subscribeToAll({ fromPosition: toLogPosition(after), filter: excludeSystemEvents() });
    // NOTE: an error emitted after iteration ended would otherwise crash the process as an unhandled 'error'.
    stream.on('error', () => undefined);
    let stopped = false;
    const deliver = async () => {
      // Pulling one event at a time: the next is read only after onEvent settled (backpressure to the server).
      for await (const { event } of stream) {
        if (stopped) return;
        if (event && isDomainEvent(event)) await onEvent(toRecordedEvent(event));
      }
      if (!stopped) throw new Error('EventStoreDB ended the subscription to all events');
    };
    const running = deliver()
      .catch((error: unknown) => {
        if (stopped) return;
        stopped = true;
        onError?.(error);
      })
      .finally(() => {
        this.subscriptions.delete(subscription);
        return stream.unsubscribe().catch(() => undefined);
      });
    const subscription: AllSubscription = {
      stop: async () => {
        if (!stopped) {
          stopped = true;
          await stream.unsubscribe().catch(() => undefined);
          // Ends a pending read at once, even if the cancelled call never ends the stream.
          stream.destroy();
        }
        await running;
      },
    };
    this.subscriptions.add(subscription);
    return subscription;
  }

  async close(): Promise<void> {
    await Promise.all([...this.subscriptions].map((s) => s.stop()));
    await this.client.dispose();
  }
}

/** Reads a whole (finite) client read; its errors, such as StreamNotFoundError, surface here. */
async function drain<T>(read: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const item of read) out.push(item);
  return out;
}

function withoutCredentials(url: string): string {
  return url.replace(/\/\/[^/@]*@/, '//***@');
}
