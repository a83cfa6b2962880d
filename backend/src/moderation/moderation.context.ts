import { aggregateKind, type BoundedContext } from '../platform/event-core/bounded-context.js';
import { reportEventSchemas } from './domain/report.events.js';
import { standingEventSchemas } from './domain/standing.events.js';
import { moderationIntegrationEvents } from './integration/moderation.integration-events.js';
import { bansProjection } from './projections/bans.projection.js';
import { reportsProjection } from './projections/reports.projection.js';
import { report } from './domain/report.decider.js';
import { reportStream } from './domain/report.events.js';
import { standing } from './domain/standing.decider.js';
import { standingStream } from './domain/standing.events.js';

/** Moderation: reports with their evidence and review, and each account's standing (bans, expiries, appeals). */
export const moderationContext: BoundedContext = {
  name: 'moderation',
  eventSchemas: [...standingEventSchemas, ...reportEventSchemas],
  projections: [bansProjection, reportsProjection],
  integrationEvents: moderationIntegrationEvents,
  aggregates: [aggregateKind(reportStream(''), report), aggregateKind(standingStream(''), standing)],
};
