/**
 * The event store port. Two adapters implement it (Postgres by default, EventStoreDB when EVENTSTORE_URL is
 * set) and both pass the same contract suite (event-store.contract.ts).
 */

/** Where an event stands in the log of all events. Ordered by `commit`, then `prepare` (EventStoreDB's form). */
export interface Position {
  commit: bigint;
  prepare: bigint;
}

export const START: Position = { commit: 0n, prepare: 0n };

export function comparePositions(a: Position, b: Position): number {
  if (a.commit !== b.commit) return a.commit < b.commit ? -1 : 1;
  if (a.prepare !== b.prepare) return a.prepare < b.prepare ? -1 : 1;
  return 0;
}

export interface EventMetadata {
  /** The command (or event) that caused this event; a command id makes retried commands idempotent. */
  causationId: string;
  /** The request or process the event belongs to, carried across contexts. */
  correlationId: string;
  /** Who acted: a user id, `system`, or an admin id. */
  actor: string;
  /** ISO-8601 time the decision was made (from the command, never the store's clock). */
  occurredAt: string;
  schemaVersion: number;
}

/** An event about to be appended. */
export interface NewEvent<Type extends string = string, Data = unknown> {
  id: string;
  type: Type;
  data: Data;
  metadata: EventMetadata;
}

/** An event as the store holds it. */
export interface RecordedEvent<Type extends string = string, Data = unknown> extends NewEvent<Type, Data> {
  streamId: string;
  /** 0 for the first event of a stream. */
  revision: bigint;
  position: Position;
}

/**
 * What the stream must look like for an append to succeed: `no-stream` (it must not exist yet), `any`
 * (no check), or the revision of its last event.
 */
export type ExpectedRevision = 'no-stream' | 'any' | bigint;

export interface AppendResult {
  /** The revision of the last event written: pass it as the next expected revision. */
  nextExpectedRevision: bigint;
  position: Position;
}

export interface ReadStreamOptions {
  direction?: 'forwards' | 'backwards';
  /** Inclusive; default the start (forwards) or the end (backwards). */
  fromRevision?: bigint;
  maxCount?: number;
}

export interface ReadAllOptions {
  /** Exclusive: events after this position. Default: from the start. */
  after?: Position;
  maxCount?: number;
  /** Only events of these types (the store filters; `maxCount` counts only these). Default: every type. */
  types?: readonly string[];
}

export interface SubscribeToAllOptions {
  /** Exclusive: resume after this position (a checkpoint). Default: from the start. */
  after?: Position;
  /** Called for each event in order; the next is delivered only after the returned promise settles. */
  onEvent: (event: RecordedEvent) => Promise<void> | void;
  /** Called once if the subscription stops on an error (including one thrown by onEvent). */
  onError?: (error: unknown) => void;
}

export interface AllSubscription {
  /** Stops delivery; resolves once no onEvent call is running. */
  stop(): Promise<void>;
}

export interface EventStore {
  append(streamId: string, events: NewEvent[], expected: ExpectedRevision): Promise<AppendResult>;
  /** Events of one stream; an empty list when the stream does not exist. */
  readStream(streamId: string, options?: ReadStreamOptions): Promise<RecordedEvent[]>;
  readAll(options?: ReadAllOptions): Promise<RecordedEvent[]>;
  /** Catch-up (every stored event after `after`) then live, in log order, never skipping or repeating one. */
  subscribeToAll(options: SubscribeToAllOptions): AllSubscription;
  close(): Promise<void>;
}

export class WrongExpectedVersion extends Error {
  override name = 'WrongExpectedVersion';
  constructor(
    readonly streamId: string,
    readonly expected: ExpectedRevision,
    /** The stream's actual last revision, or 'no-stream'. */
    readonly actual: bigint | 'no-stream',
  ) {
    super(`stream ${streamId}: expected revision ${String(expected)}, actual ${String(actual)}`);
  }
}
