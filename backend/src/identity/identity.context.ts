import { aggregateKind, type BoundedContext } from '../platform/event-core/bounded-context.js';
import { identityEventSchemas } from './domain/account.events.js';
import { identityIntegrationEvents } from './integration/identity.integration-events.js';
import { usersProjection } from './projections/users.projection.js';
import { sessionEventSchemas } from './sessions/session.events.js';
import { account } from './domain/account.decider.js';
import { accountStream } from './domain/account.events.js';

/** Identity: accounts, profiles, sessions and their security (spec 2, 3, 4, 6, 7, 8). */
export const identityContext: BoundedContext = {
  name: 'identity',
  eventSchemas: [...identityEventSchemas, ...sessionEventSchemas],
  projections: [usersProjection],
  integrationEvents: identityIntegrationEvents,
  aggregates: [aggregateKind(accountStream(''), account)],
};
