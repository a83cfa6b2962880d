import type { BoundedContext } from '../platform/event-core/bounded-context.js';
import { reportEventSchemas } from './domain/report.events.js';
import { standingEventSchemas } from './domain/standing.events.js';
import { moderationIntegrationEvents } from './integration/moderation.integration-events.js';
import { bansProjection } from './projections/bans.projection.js';
import { reportsProjection } from './projections/reports.projection.js';

/** Moderation: reports with their evidence and review, and each account's standing (bans, expiries, appeals). */
export const moderationContext: BoundedContext = {
  name: 'moderation',
  eventSchemas: [...standingEventSchemas, ...reportEventSchemas],
  projections: [bansProjection, reportsProjection],
  integrationEvents: moderationIntegrationEvents,
};
