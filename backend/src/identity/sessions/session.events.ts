import type { DomainEvent } from '../../platform/cqrs/decider.js';
import type { EventSchema } from '../../platform/personal-data/event-schemas.js';

export type SessionStarted = DomainEvent<
  'SessionStarted',
  {
    sessionId: string;
    userId: string;
    ip: string | null;
    userAgent: string | null;
    /** Where the address places the session (spec 3 "Login session"); absent on older sessions. */
    country?: string | null;
    city?: string | null;
    /** Started with the mailed sign-in code, not the password alone (spec 6 Admin); absent on older sessions. */
    signedInWithCode?: boolean;
  }
>;
export type SessionEnded = DomainEvent<'SessionEnded', { sessionId: string; userId: string; reason: string }>;
/** A rotated refresh token came back: someone holds a stolen copy, so the whole session ended. */
export type SessionCompromised = DomainEvent<'SessionCompromised', { sessionId: string; userId: string }>;
export type SessionEvent = SessionStarted | SessionEnded | SessionCompromised;

export const sessionStream = (sessionId: string) => `identity-session-${sessionId}`;

export const sessionEventSchemas: EventSchema[] = [
  {
    type: 'SessionStarted',
    schemaVersion: 1,
    subject: (d) => d.userId as string,
    personal: ['ip', 'userAgent', 'country', 'city'],
  },
  { type: 'SessionEnded', schemaVersion: 1 },
  { type: 'SessionCompromised', schemaVersion: 1 },
] as EventSchema[];
