import { z } from 'zod/mini';
import type { DashboardCounters } from '../http/dashboard.js';
import type { DashReport } from '../http/dash-moderation.js';
import type { CommentView, ReplyView } from '../http/feed.js';
import type { NotificationView } from '../http/notifications.js';

/**
 * The system socket: the default Socket.IO namespace every client opens. Clients ping; the server pushes the events
 * below. spec 7: the handshake's query carries `userId` (must be the session's own, else the socket is refused) and
 * `device` ('mobile' when the window is at most 768 px wide, else 'desktop').
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
  /** spec 4 "Presence": the page became hidden. */
  away: () => void;
  /** The page is visible again. */
  back: () => void;
}

export const DEVICE_TYPES = ['mobile', 'desktop'] as const;
export type DeviceType = (typeof DEVICE_TYPES)[number];
/** spec 7: the system socket's handshake query. */
export const systemSocketQuerySchema = z.object({
  userId: z.optional(z.string().check(z.maxLength(64))),
  device: z.optional(z.enum(DEVICE_TYPES)),
});

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

/**
 * spec 7 newNotification: this server pushes one at a time, each with its stored event's id (spec 7 allows an array
 * too: a client takes either).
 */
export type NewNotificationPush = NotificationView & Pushed;

/** One signed-in user who is online on any node (to admins only: the list would show every user to everyone). */
export interface OnlineUser {
  userId: string;
  firstName: string;
  device: DeviceType;
  status: 'online' | 'away';
}
/** At most this many users in one onlineUsers push (by first name); `total` counts them all. */
export const ONLINE_USERS_LISTED = 200;
/**
 * To admins (spec 7 onlineUsers): who is online now, the first ONLINE_USERS_LISTED by first name, and how many in all;
 * sent when it changes, at most every 2 s. (The whole list, at scale, would be megabytes to every admin every time.)
 */
export interface OnlineUsersPush extends Pushed {
  users: OnlineUser[];
  total: number;
}
/** To every signed-in socket: only how many people are online (home and the match screen: '1,234 people online'). */
export interface OnlineCountPush extends Pushed {
  count: number;
}

/**
 * The feed's live events (spec 5, 7). A new comment goes to admins as `newComment` and to everyone else as
 * `CommentReplyBadWord` (the name spec 7 gives the comments and replies that passed the profanity filter); a clean
 * reply goes to everyone as `newReply`. A comment or reply the filter removed is pushed to no one but admins (in
 * `newComment`/`newReply`, with `removed`). Clients merge by id (spec 4): a repeat, or one without its id, is skipped.
 */
export interface NewCommentPush extends Pushed {
  postId: string;
  comment: CommentView;
}
export interface NewReplyPush extends Pushed {
  commentId: string;
  reply: ReplyView;
}
export type CommentReplyBadWordPush = NewCommentPush | NewReplyPush;
/**
 * A comment was deleted (by its author) or taken down (`removed`: by staff): gone with its replies. A page of its
 * author or of staff keeps a removed one, marked removed (why is in the author's notice, not here: it goes to all).
 */
export interface CommentDeletedPush extends Pushed {
  postId: string;
  commentId: string;
  removed?: true;
}
export interface ReplyDeletedPush extends Pushed {
  postId: string;
  commentId: string;
  replyId: string;
  removed?: true;
}
/** spec 7 postLiked / postUnliked {postId, likes}: the post's recent likers, the count, and who did it. */
export interface PostLikesPush extends Pushed {
  postId: string;
  likes: string[];
  likeCount: number;
  userId: string;
}
export interface PostDeletedPush extends Pushed {
  postId: string;
}

/** What the server pushes on the system socket to one user's sockets, or to every admin's (spec 7). */
export interface SystemServerToClientEvents {
  newNotification: (event: NewNotificationPush) => void;
  onlineUsers: (event: OnlineUsersPush) => void;
  onlineCount: (event: OnlineCountPush) => void;
  sessionEnded: (event: SessionEndedPush) => void;
  banStatusUpdated: (event: BanStatusUpdatedPush) => void;
  dashboardCounters: (event: DashboardCountersPush) => void;
  reportFiled: (event: ReportListedPush) => void;
  reportResolved: (event: ReportListedPush) => void;
  appealQueueChanged: (event: AppealQueueChangedPush) => void;
  accountUpdated: (event: AccountUpdatedPush) => void;
  newComment: (event: NewCommentPush) => void;
  CommentReplyBadWord: (event: CommentReplyBadWordPush) => void;
  newReply: (event: NewReplyPush) => void;
  commentDeleted: (event: CommentDeletedPush) => void;
  replyDeleted: (event: ReplyDeletedPush) => void;
  postLiked: (event: PostLikesPush) => void;
  postUnliked: (event: PostLikesPush) => void;
  postDeleted: (event: PostDeletedPush) => void;
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
  'newNotification',
  'onlineUsers',
  'onlineCount',
  'newComment',
  'CommentReplyBadWord',
  'newReply',
  'commentDeleted',
  'replyDeleted',
  'postLiked',
  'postUnliked',
  'postDeleted',
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

export const SYSTEM_EVENTS = { ping: 'ping', away: 'away', back: 'back' } as const satisfies Record<
  keyof SystemClientToServerEvents,
  string
>;

/** spec 9: socket reconnection 10 attempts, 2000 ms delay, 10000 ms connection timeout. */
export const SOCKET_RECONNECTION = {
  reconnectionAttempts: 10,
  reconnectionDelay: 2000,
  timeout: 10000,
} as const;

export function isSocketError(answer: unknown): answer is SocketErrorAnswer {
  return typeof answer === 'object' && answer !== null && 'error' in answer;
}
