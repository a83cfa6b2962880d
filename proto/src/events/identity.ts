import { z } from 'zod/mini';
import type { IntegrationEvent } from './integration-event.js';

/**
 * A sign-in session ended (identity context): logout, ended from the account's settings, a password reset, the
 * account's deletion, or a reused refresh token. Its sockets close on every node (DESIGN.md "Fan-out: NATS").
 */
export const sessionEndedDataSchema = z.object({
  sessionId: z.string().check(z.minLength(1)),
  userId: z.string().check(z.minLength(1)),
  reason: z.string(),
});
export type SessionEndedEvent = IntegrationEvent<'SessionEnded', z.infer<typeof sessionEndedDataSchema>>;
/**
 * An account was deleted (identity context): other contexts delete what they keep of that person (matching: the
 * snapshots showing them, unless an open case holds one).
 */
export const accountDeletedDataSchema = z.object({ userId: z.string().check(z.minLength(1)) });
export type AccountDeletedEvent = IntegrationEvent<'AccountDeleted', z.infer<typeof accountDeletedDataSchema>>;
/**
 * What an account may reach changed (identity context): a staff role given or taken, or two-factor login turned on or
 * off (staff need it, spec 6 Admin). The account's open sockets take or drop the staff pushes at once.
 */
export const accessChangedDataSchema = z.object({ userId: z.string().check(z.minLength(1)) });
export type AccessChangedEvent = IntegrationEvent<'AccessChanged', z.infer<typeof accessChangedDataSchema>>;
export type IdentityIntegrationEvent = SessionEndedEvent | AccountDeletedEvent | AccessChangedEvent;
