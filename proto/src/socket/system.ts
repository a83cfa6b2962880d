import { z } from 'zod/mini';
import type { DashboardCounters } from '../http/dashboard.js';
import type { DashReport } from '../http/dash-moderation.js';

/**
 * The system socket: the default Socket.IO namespace every client opens. Clients ping; the server pushes the events
 * below. spec 7's other events (newNotification, newComment, ...) are not pushed yet.
 */
export const pingRequestSchema = z.object({
  /** Client clock in ms, echoed back so the client can measure the round trip. */
  sentAt: z.number(),
});
export type PingRequest = z.infer<typeof pingRequestSchema>;

export interface Pong {
  sentAt: number;
  /** Server clock in ms when the ping arrived. */
  serverTime: number;
}

/** Sent instead of a normal answer when a client event is malformed or not allowed. */
export interface SocketErrorAnswer {
  error: { reason: string };
}

export type PingAck = (answer: Pong | SocketErrorAnswer) => void;

export interface SystemClientToServerEvents {
  ping: (request: PingRequest, ack: PingAck) => void;
}

/**
 * Every pushed event carries the id of the stored event behind it (DESIGN.md "Fan-out: NATS"): delivery is at least once,
 * so a client drops an id it has seen.
 */
export interface Pushed {
  eventId: string;
}

/** This sign-in was ended (logout elsewhere, "end this session", a password reset, theft detection): sign in again. */
export interface SessionEndedPush extends Pushed {
  /**
   * 'logged-out': the person logged out (in another tab or window); 'account-deleted': they deleted the account;
   * 'expired': anything else ended it.
   */
  code: SessionEndCode;
  /** For people. */
  reason: string;
}

export const SESSION_END_CODES = ['logged-out', 'account-deleted', 'expired'] as const;
export type SessionEndCode = (typeof SESSION_END_CODES)[number];

/** spec 7: banStatusUpdated {userId, isBanned}. */
export interface BanStatusUpdatedPush extends Pushed {
  userId: string;
  isBanned: boolean;
}

/**
 * To staff (every admin's and moderator's system socket): a report was filed, or reviewed, as the dashboard's report
 * table lists it, so the table shows it without a reload and two moderators do not act on the same one.
 */
export type ReportListedPush = DashReport & Pushed;

/**
 * To staff: the appeals queue changed (an appeal filed or decided, or an appealed ban ended), so an open Appeals page
 * loads it again; `caseId` names the ban.
 */
export interface AppealQueueChangedPush extends Pushed {
  caseId: string;
}

/**
 * To staff: the dashboard overview's live figures changed (sent at most about once a second, and now and then unchanged).
 * `at`: when they were counted (ISO), so a client keeps the newest.
 */
export interface DashboardCountersPush extends Pushed {
  counters: DashboardCounters;
  at: string;
}

/**
 * To the user's own sockets: their account changed in a way the page must show at once (a staff role given or taken,
 * two-factor login turned on or off): the client asks user info again, so the dashboard link and guard follow.
 */
export interface AccountUpdatedPush extends Pushed {
  userId: string;
}

/** What the server pushes on the system socket to one user's sockets, or to every admin's (spec 7). */
export interface SystemServerToClientEvents {
  sessionEnded: (event: SessionEndedPush) => void;
  banStatusUpdated: (event: BanStatusUpdatedPush) => void;
  dashboardCounters: (event: DashboardCountersPush) => void;
  reportFiled: (event: ReportListedPush) => void;
  reportResolved: (event: ReportListedPush) => void;
  appealQueueChanged: (event: AppealQueueChangedPush) => void;
  accountUpdated: (event: AccountUpdatedPush) => void;
}

export type SystemPushEvent = keyof SystemServerToClientEvents;
export type SystemPushPayload<E extends SystemPushEvent> = Parameters<SystemServerToClientEvents[E]>[0];

export const SYSTEM_PUSH_EVENTS = [
  'sessionEnded',
  'banStatusUpdated',
  'dashboardCounters',
  'reportFiled',
  'reportResolved',
  'appealQueueChanged',
  'accountUpdated',
] as const satisfies readonly SystemPushEvent[];

/**
 * A push between backend nodes on `user.<id>` or `role.<role>` (DESIGN.md "Fan-out: NATS"): each node hands it to
 * the sockets it holds. `emit` goes to every system socket of the target; `end-session` closes that session's sockets
 * in every namespace, after telling the client why; `refresh-access` (on `user.<id>`) has every system socket of that
 * user read its role and two-factor setting again and take exactly the role pushes they allow.
 */
export const userPushSchema = z.discriminatedUnion('kind', [
  z.object({
    kind: z.literal('emit'),
    id: z.string().check(z.minLength(1)),
    event: z.enum(SYSTEM_PUSH_EVENTS),
    payload: z.record(z.string(), z.unknown()),
  }),
  z.object({
    kind: z.literal('end-session'),
    id: z.string().check(z.minLength(1)),
    sessionId: z.string().check(z.minLength(1)),
    code: z.enum(SESSION_END_CODES),
    reason: z.string(),
  }),
  z.object({
    kind: z.literal('refresh-access'),
    id: z.string().check(z.minLength(1)),
  }),
]);
export type UserPush = z.infer<typeof userPushSchema>;

export const SYSTEM_EVENTS = { ping: 'ping' } as const satisfies Record<keyof SystemClientToServerEvents, string>;

/** spec 9: socket reconnection 10 attempts, 2000 ms delay, 10000 ms connection timeout. */
export const SOCKET_RECONNECTION = {
  reconnectionAttempts: 10,
  reconnectionDelay: 2000,
  timeout: 10000,
} as const;

export function isSocketError(answer: unknown): answer is SocketErrorAnswer {
  return typeof answer === 'object' && answer !== null && 'error' in answer;
}
