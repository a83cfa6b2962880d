import type { IntegrationEvent } from '@serendip/proto';
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
