import type { BoundedContext } from '../platform/event-core/bounded-context.js';
import { standingEventSchemas } from './domain/standing.events.js';

/** Moderation: each account's standing (bans, expiries, appeals). Reports, read models and routes join here next. */
export const moderationContext: BoundedContext = {
  name: 'moderation',
  eventSchemas: standingEventSchemas,
  projections: [],
};
