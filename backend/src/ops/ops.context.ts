import { aggregateKind, type BoundedContext } from '../platform/event-core/bounded-context.js';
import { opsEventSchemas } from './domain/service-instance.events.js';
import { opsIntegrationEvents } from './integration/ops.integration-events.js';
import { serverLogProjection } from './projections/server-log.projection.js';
import { serviceInstance } from './domain/service-instance.decider.js';
import { serviceInstanceStream } from './domain/service-instance.events.js';

/** Operations: backend processes starting and stopping, shown to admins as the System Log. */
export const opsContext: BoundedContext = {
  name: 'ops',
  eventSchemas: opsEventSchemas,
  projections: [serverLogProjection],
  integrationEvents: opsIntegrationEvents,
  aggregates: [aggregateKind(serviceInstanceStream(''), serviceInstance)],
};
