import type { BoundedContext } from '../platform/event-core/bounded-context.js';

/**
 * Admin (DESIGN.md "Conventions"): the dashboard's own read models over every context's events, and the records of
 * what staff looked at.
 */
export const adminContext: BoundedContext = {
  name: 'admin',
  eventSchemas: [],
  projections: [],
};
