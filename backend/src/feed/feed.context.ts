import { aggregateKind, type BoundedContext } from '../platform/event-core/bounded-context.js';
import { feedEventSchemas } from './domain/feed.events.js';
import { feedIntegrationEvents } from './integration/feed.integration-events.js';
import { feedProjection } from './projections/feed.projection.js';
import { contribution } from './domain/contribution.decider.js';
import { like } from './domain/like.decider.js';
import { post } from './domain/post.decider.js';
import { commentStream, likeStream, postStream, replyStream } from './domain/feed.events.js';

/** Feed: posts, likes, comments and replies, the profanity filter's removals and their appeals (spec 1, 3, 4, 5, 7). */
export const feedContext: BoundedContext = {
  name: 'feed',
  eventSchemas: feedEventSchemas,
  projections: [feedProjection],
  integrationEvents: feedIntegrationEvents,
  aggregates: [
    aggregateKind(postStream(''), post),
    aggregateKind(likeStream('', '').slice(0, -1), like),
    aggregateKind(commentStream(''), contribution),
    aggregateKind(replyStream(''), contribution),
  ],
};
