import { v5 as uuidv5 } from 'uuid';
import type { EventStore, NewEvent, Position, RecordedEvent } from '../event-store/event-store.js';
import { WrongExpectedVersion } from '../event-store/event-store.js';
import type { EventSchemas } from '../personal-data/event-schemas.js';
import { backoffDelay, sleep } from '../shared/backoff.js';
import { ConcurrencyConflict, type Decider, type DomainEvent } from './decider.js';

// Fixed namespace: event ids derived from a command id are the same on every retry of that command.
const EVENT_ID_NAMESPACE = '6f1c1b5e-2d3a-4f7e-9a51-1f0c3f4f9a10';
const MAX_ATTEMPTS = 4;
const CONFLICT_BACKOFF_MS = 5;

export interface CommandMetadata {
  /** Unique per intent: an HTTP request's Idempotency-Key, or a fresh id. Retrying with it appends nothing twice. */
  commandId: string;
  correlationId: string;
  actor: string;
  now: Date;
}

export interface DeciderResult<Event extends DomainEvent> {
  /** The events this command produced (the first time it ran, if this was a retry). */
  events: Event[];
  nextExpectedRevision: bigint | 'no-stream';
  /** Where the last of those events stands in the log (undefined when the command decided nothing). */
  position: Position | undefined;
  /**
   * True when the command was found already handled and nothing was appended now. (Two copies racing each
   * other may both read false: the store then recognises the repeated event ids and stores them once.)
   */
  alreadyHandled: boolean;
}

/**
 * The one generic command handler (STYLE.md): read the stream, fold, decide, append at the expected revision;
 * on a concurrent write, read again and decide again (bounded).
 */
export async function executeDecider<Command, State, Event extends DomainEvent>(
  deps: { store: EventStore; schemas: EventSchemas },
  streamId: string,
  decider: Decider<Command, State, Event>,
  command: Command,
  metadata: CommandMetadata,
): Promise<DeciderResult<Event>> {
  for (let attempt = 1; ; attempt++) {
    const history = await deps.store.readStream(streamId);
    const earlier = history.filter((e) => e.metadata.causationId === metadata.commandId);
    const revision = history.length ? history[history.length - 1]!.revision : ('no-stream' as const);
    if (earlier.length) {
      const position = earlier[earlier.length - 1]!.position;
      return { events: earlier.map(toDomain<Event>), nextExpectedRevision: revision, position, alreadyHandled: true };
    }

    const state = history.map(toDomain<Event>).reduce(decider.evolve, decider.initialState);
    const decided = decider.decide(command, state, { now: metadata.now, actor: metadata.actor });
    if (decided.length === 0)
      return { events: [], nextExpectedRevision: revision, position: undefined, alreadyHandled: false };

    try {
      const result = await deps.store.append(
        streamId,
        decided.map((e, i) => toNew(streamId, e, i, metadata, deps.schemas)),
        revision,
      );
      return {
        events: decided,
        nextExpectedRevision: result.nextExpectedRevision,
        position: result.position,
        alreadyHandled: false,
      };
    } catch (error) {
      if (!(error instanceof WrongExpectedVersion)) throw error;
      if (attempt >= MAX_ATTEMPTS) throw new ConcurrencyConflict('Please try again');
      // A few jittered milliseconds: writers that collided do not collide again in lockstep.
      await sleep(backoffDelay(attempt - 1, CONFLICT_BACKOFF_MS, 50));
    }
  }
}

function toDomain<Event extends DomainEvent>(event: RecordedEvent): Event {
  return { type: event.type, data: event.data } as Event;
}

function toNew(
  streamId: string,
  event: DomainEvent,
  index: number,
  metadata: CommandMetadata,
  schemas: EventSchemas,
): NewEvent {
  return {
    // Scoped by stream: the same key sent for another stream is another command, not a collision.
    id: uuidv5(`${streamId}:${metadata.commandId}:${index}`, EVENT_ID_NAMESPACE),
    type: event.type,
    data: event.data,
    metadata: {
      causationId: metadata.commandId,
      correlationId: metadata.correlationId,
      actor: metadata.actor,
      occurredAt: metadata.now.toISOString(),
      schemaVersion: schemas.get(event.type).schemaVersion,
    },
  };
}
