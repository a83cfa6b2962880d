import type { BoundedContext } from '../platform/event-core/bounded-context.js';
import { personalDataReadEventSchemas } from './domain/personal-data-read.events.js';
import { staffAccessEventSchemas } from './domain/staff-access.events.js';
import { auditTrailProjection } from './projections/audit-trail.projection.js';
import { overviewStatsProjection } from './projections/overview-stats.projection.js';

/**
 * Admin (DESIGN.md "Conventions"): the dashboard's own read models over every context's events, and the records of
 * what staff looked at.
 */
export const adminContext: BoundedContext = {
  name: 'admin',
  eventSchemas: [...staffAccessEventSchemas, ...personalDataReadEventSchemas],
  projections: [auditTrailProjection, overviewStatsProjection],
};
