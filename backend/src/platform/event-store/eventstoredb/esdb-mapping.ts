import {
  ANY,
  type AppendExpectedRevision,
  type CurrentRevision,
  type EventData,
  jsonEvent,
  type JSONType,
  NO_STREAM,
  type RecordedEvent as EsdbRecordedEvent,
  type ReadPosition,
  START as LOG_START,
} from '@eventstore/db-client';
import {
  comparePositions,
  type EventMetadata,
  type ExpectedRevision,
  type NewEvent,
  type Position,
  type RecordedEvent,
  START,
} from '../event-store.js';

/** Translations between the port and @eventstore/db-client, kept pure so they are tested without a server. */

export function toEsdbExpectedRevision(expected: ExpectedRevision): AppendExpectedRevision {
  if (expected === 'no-stream') return NO_STREAM;
  if (expected === 'any') return ANY;
  return expected;
}

/** The client names a missing stream 'no_stream'; some server paths send revision -1 instead. */
export function toActualRevision(current: CurrentRevision): bigint | 'no-stream' {
  return current === NO_STREAM || current < 0n ? 'no-stream' : current;
}

/** Our START is "before everything": the client's 'start', so an event at log position 0/0 is not lost. */
export function toLogPosition(after: Position | undefined): ReadPosition {
  if (after === undefined || comparePositions(after, START) === 0) return LOG_START;
  return { commit: after.commit, prepare: after.prepare };
}

/** The exclusive bound of `after`: the client's read of $all includes the event at its starting position. */
export function isAfter(position: Position, after: Position | undefined): boolean {
  return after === undefined || comparePositions(position, after) > 0;
}

/** Ours: JSON, and not the server's own bookkeeping ($statsCollected, $metadata, links `$>`, ...). */
export function isDomainEvent(event: EsdbRecordedEvent): boolean {
  return event.isJson && !event.type.startsWith('$');
}

export function toEventData(event: NewEvent): EventData {
  return jsonEvent({
    id: event.id,
    type: event.type,
    // The client JSON-encodes any value; its JSONType is narrower than our `unknown`.
    data: event.data as JSONType,
    metadata: event.metadata,
  });
}

/** What servers before 22.6 put in place of the log position on stream reads (-1 as an unsigned 64-bit). */
const NO_POSITION = 2n ** 64n - 1n;

export function toRecordedEvent(event: EsdbRecordedEvent): RecordedEvent {
  // NOTE: projections and readers order by the log position, so an event without a real one is refused.
  if (!event.position || event.position.commit === NO_POSITION) {
    throw new Error(`EventStoreDB sent no log position for ${event.streamId}@${event.revision}: needs 22.6 or later`);
  }
  return {
    id: event.id,
    streamId: event.streamId,
    revision: event.revision,
    type: event.type,
    data: event.data,
    // append() wrote it as JSON, so the client has parsed it back into the object.
    metadata: event.metadata as unknown as EventMetadata,
    position: { commit: event.position.commit, prepare: event.position.prepare },
  };
}
