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
