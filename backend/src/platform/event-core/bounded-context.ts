import type { IntegrationEvent } from '@serendip/proto';
import type { Decider, DomainEvent } from '../cqrs/decider.js';
import type { RecordedEvent } from '../event-store/event-store.js';
import type { EventSchema } from '../personal-data/event-schemas.js';
import type { Projection } from '../projections/projection.js';

/** What a context hands the event core: the events it writes, its read models, and what it tells others. */
export interface BoundedContext {
  name: string;
  eventSchemas: EventSchema[];
  projections: Projection[];
  /** Maps a stored event of this context to integration events (proto contracts); [] for internal ones. */
  integrationEvents?: (event: RecordedEvent) => IntegrationEvent[];
  /**
   * The aggregates this context decides on, each by the prefix of its streams: what folds a stream's events into
   * the state its decider sees (`npm run events -- state`, time travel for auditors).
   */
  aggregates?: AggregateKind[];
}

export interface AggregateKind {
  streamPrefix: string;
  /** The decider's own evolve over these events, from its initial state. */
  fold(events: readonly DomainEvent[]): unknown;
}

/** An aggregate kind from a stream prefix (e.g. `postStream('')`) and the decider that owns those streams. */
export function aggregateKind<State, Event extends DomainEvent>(
  streamPrefix: string,
  decider: Pick<Decider<never, State, Event>, 'initialState' | 'evolve'>,
): AggregateKind {
  return { streamPrefix, fold: (events) => (events as Event[]).reduce(decider.evolve, decider.initialState) };
}

/** The aggregate kind a stream belongs to: the longest prefix wins (`moderation-report-` over `moderation-`). */
export function aggregateOf(contexts: readonly BoundedContext[], streamId: string): AggregateKind | undefined {
  return contexts
    .flatMap((c) => c.aggregates ?? [])
    .filter((a) => streamId.startsWith(a.streamPrefix))
    .sort((a, b) => b.streamPrefix.length - a.streamPrefix.length)[0];
}

/**
 * The integration-event mapper of each context, shown only the events that context writes: every stored event goes
 * past every mapper, and one context's mapper knows nothing of another's events.
 */
export function integrationMappers(
  contexts: BoundedContext[],
): Record<string, (event: RecordedEvent) => IntegrationEvent[]> {
  return Object.fromEntries(
    contexts.flatMap((context) => {
      const map = context.integrationEvents;
      if (!map) return [];
      const own = new Set(context.eventSchemas.map((schema) => schema.type));
      return [[context.name, (event: RecordedEvent) => (own.has(event.type) ? map(event) : [])]];
    }),
  );
}
