import { adminContext } from './admin/admin.context.js';
import { feedContext } from './feed/feed.context.js';
import { identityContext } from './identity/identity.context.js';
import { matchingContext } from './matching/matching.context.js';
import { moderationContext } from './moderation/moderation.context.js';
import { notificationsContext } from './notifications/notifications.context.js';
import { opsContext } from './ops/ops.context.js';
import type { BoundedContext } from './platform/event-core/bounded-context.js';

/** Every bounded context of the backend. identity, matching, moderation, notifications, feed and admin join here. */
export const contexts: BoundedContext[] = [
  opsContext,
  identityContext,
  matchingContext,
  moderationContext,
  notificationsContext,
  feedContext,
  adminContext,
];
