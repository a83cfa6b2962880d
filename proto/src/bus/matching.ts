import { z } from 'zod/mini';
import { checkContract, type Expect, type TypesMatch } from '../contract.js';
import {
  type IceServer,
  type MatchFound,
  matchFiltersSchema,
  type PartnerLeftReason,
  type PartnerProfile,
  type RelayReason,
} from '../socket/video.js';

/**
 * What the video gateways (on any backend node) and the one matchmaker (the leader, DESIGN.md "Processes and roles")
 * say to each other over the bus. Both ends are the backend, but of different processes (and of different versions
 * during a rolling deploy), so each end parses what it receives and drops what does not fit, logging why.
 */

const id = z.string().check(z.minLength(1));
const gender = z.enum(['male', 'female']);
/** Why a call goes through the SFU (recorded with it: the `Relay` event). */
const relayReason = z.enum(['relay-mode', 'hide-ip', 'p2p-failed', 'report']);

const partnerProfileSchema = z.object({
  _id: id,
  socketId: id,
  firstName: z.string(),
  userAge: z.int(),
  gender,
  country: z.nullable(z.string()),
  avatar: z.nullable(z.string()),
  isAdmin: z.boolean(),
  deviceType: z.enum(['mobile', 'desktop']),
});

/** What the partner is shown (spec 3 "Partner data on a match"), minus the ids: the per-match id comes at pairing. */
const publicProfileSchema = z.omit(partnerProfileSchema, { _id: true, socketId: true });
export type PublicProfile = z.infer<typeof publicProfileSchema>;

/** The server's own view of a user who asks to be matched: never the client's claims. */
export const seekerProfileSchema = z.object({
  gender,
  /** "Hide my IP": this user's calls are relayed. */
  hideIp: z.boolean(),
  age: z.int(),
  country: z.nullable(z.string()),
  public: publicProfileSchema,
});
export type SeekerProfile = z.infer<typeof seekerProfileSchema>;

/**
 * `node`: the backend node whose gateway holds the socket. A node that dies without a word (SIGKILL, a lost machine)
 * never says its sockets are lost; the matchmaker notices its heartbeats stop (GATEWAY_ALIVE_SUBJECT).
 */
const userSocket = { userId: id, socketId: id, node: z.optional(id) };

/** What each gateway node says every GATEWAY_HEARTBEAT_MS on the bus: it is alive. */
export const gatewayAliveSchema = z.object({ node: id });
export const GATEWAY_HEARTBEAT_MS = 1_000;

export const coordinatorRequestSchema = z.discriminatedUnion('kind', [
  /**
   * `seekId` names this search (one press of Start): a gateway asks a new leader again with the same one, and a search
   * the leader already paired is not started over (which would end the call it made).
   */
  z.object({
    kind: z.literal('start'),
    ...userSocket,
    seekId: z.optional(id),
    profile: seekerProfileSchema,
    filters: matchFiltersSchema,
  }),
  /**
   * A leave, a skip, or a call given up because its connection never came up ('timeout'); `matchId`: the call the socket
   * was in (or coming back to), when it was in one.
   */
  z.object({
    kind: z.literal('leave'),
    ...userSocket,
    reason: z.enum(['leave', 'skip', 'timeout']),
    matchId: z.optional(id),
  }),
  z.object({ kind: z.literal('socket-lost'), ...userSocket }),
  /**
   * A socket that came back and says which call it was in. `fresh`: from a new page (a reload, a new tab), whose media
   * is gone with the old one, so the call's media starts over.
   */
  z.object({ kind: z.literal('resume'), ...userSocket, matchId: id, fresh: z.optional(z.boolean()) }),
  z.object({ kind: z.literal('rtc-connected'), ...userSocket, matchId: id }),
  /** Auto mode: this side's peer connection did not come up; move the call to the SFU. */
  z.object({ kind: z.literal('fallback'), ...userSocket, matchId: id }),
  /** This side opened the Report dialog: a peer-to-peer call moves to the SFU, so the server can film the other side. */
  z.object({ kind: z.literal('report-opened'), ...userSocket, matchId: id }),
  /** The SFU lost the call's room (its worker died). */
  z.object({ kind: z.literal('room-lost'), matchId: id, sfuNode: id }),
  /**
   * To a new leader, which knows no call: a call this socket is in, as its gateway knows it. The other
   * side's gateway says the same if it is up; if not, the other side has the grace period to come back (resume).
   */
  z.object({
    kind: z.literal('adopt'),
    ...userSocket,
    matchId: id,
    role: z.enum(['offerer', 'answerer']),
    sharedInterests: z.array(z.string()),
    own: publicProfileSchema,
    partner: z.object({ userId: id, alias: id, public: publicProfileSchema }),
    /** A relayed call: the SFU node of its room, and why it is relayed. */
    relay: z.optional(z.object({ sfuNode: id, reason: relayReason })),
  }),
]);
export type CoordinatorRequest = z.infer<typeof coordinatorRequestSchema>;

const iceServerSchema = z.object({
  urls: z.array(z.string()),
  username: z.optional(z.string()),
  credential: z.optional(z.string()),
});

const matchFoundSchema = z.object({
  matchId: id,
  partnerId: id,
  partnerUser: partnerProfileSchema,
  role: z.enum(['offerer', 'answerer']),
  iceServers: z.array(iceServerSchema),
  media: z.enum(['p2p', 'relay']),
  relayFallback: z.boolean(),
  sharedInterests: z.optional(z.array(z.string())),
});

const partnerLeftReason = z.enum(['skip', 'leave', 'disconnect', 'ban']);

export const RELAY_EVENTS = [
  'offer',
  'answer',
  'ice-candidate',
  'chatMessage',
  'typing',
  'mic-toggle',
  'camera-toggle',
  'speaking-status',
  'partner-network-quality',
  'media:producer',
] as const;
export type RelayEvent = (typeof RELAY_EVENTS)[number];

/** Published on `user.<id>`; the gateways holding that user's sockets act on it. */
export const userDeliverySchema = z.discriminatedUnion('kind', [
  /** To one socket: the call it is now in (found, or resumed after a blip). */
  z.object({
    kind: z.literal('match'),
    socketId: id,
    event: z.enum(['matchFound', 'matchResumed']),
    match: matchFoundSchema,
    /** The partner's user id, for the gateway's own record (relays go to it); the client knows only `match.partnerId`. */
    partnerUserId: id,
    /** The SFU node of a relayed call: the gateway sends its media requests there (never told to the client). */
    sfuNode: z.optional(id),
    /** Why it is relayed (a new leader is told, with the node: adopt). */
    relayReason: z.optional(relayReason),
  }),
  /** To the sockets in that call: its media now goes through the SFU on this node (moved, or made again). */
  z.object({
    kind: z.literal('media-path'),
    matchId: id,
    sfuNode: id,
    event: z.enum(['media:path', 'media:reconnect']),
    reason: z.optional(relayReason),
  }),
  /** To the sockets in that call: the partner left it, for this reason. */
  z.object({ kind: z.literal('partner-left'), matchId: id, reason: partnerLeftReason }),
  /** To the sockets in that call: the partner's socket dropped (the call is held for the grace period), or is back. */
  z.object({ kind: z.literal('partner-reconnecting'), matchId: id }),
  /** `mediaRestart`: the partner came back on a new page, so the call's media starts over (see partnerReconnected). */
  z.object({ kind: z.literal('partner-reconnected'), matchId: id, mediaRestart: z.optional(z.boolean()) }),
  /** To one socket that asked to resume a call that is over. */
  z.object({ kind: z.literal('call-over'), socketId: id, matchId: id }),
  z.object({ kind: z.literal('fully-connected'), matchId: id }),
  /** To one socket: another tab of the same user took over matching. */
  z.object({ kind: z.literal('replaced'), socketId: id }),
  /** To one socket: the server could not pair it (the log refused the pairing); the search is over. */
  z.object({ kind: z.literal('unavailable'), socketId: id }),
  /**
   * From the partner's gateway: a relay of one of the client events, already validated there. `from` is the sender's
   * user id; the receiving gateway shows its client the sender's per-match id instead.
   */
  z.object({
    kind: z.literal('relay'),
    matchId: id,
    from: id,
    event: z.enum(RELAY_EVENTS),
    payload: z.record(z.string(), z.unknown()),
  }),
]);
export type UserDelivery = z.infer<typeof userDeliverySchema>;

// The socket contract's types are written by hand (socket/video.ts); a delivery carries them, so they must agree.
type _PartnerProfileMatches = Expect<TypesMatch<z.infer<typeof partnerProfileSchema>, PartnerProfile>>;
type _IceServerMatches = Expect<TypesMatch<z.infer<typeof iceServerSchema>, IceServer>>;
type _MatchFoundMatches = Expect<TypesMatch<z.infer<typeof matchFoundSchema>, MatchFound>>;
type _PartnerLeftReasonMatches = Expect<TypesMatch<z.infer<typeof partnerLeftReason>, PartnerLeftReason>>;
type _RelayReasonMatches = Expect<TypesMatch<z.infer<typeof relayReason>, RelayReason>>;

/** A matching request from the bus, or undefined (and why, to `onInvalid`) when it is not one. */
export function parseCoordinatorRequest(
  data: unknown,
  onInvalid: (reason: string) => void,
): CoordinatorRequest | undefined {
  const checked = checkContract(coordinatorRequestSchema, data);
  if (checked.ok) return checked.value;
  onInvalid(checked.reason);
  return undefined;
}

/** A delivery from the bus, or undefined (and why, to `onInvalid`) when it is not one. */
export function parseUserDelivery(data: unknown, onInvalid: (reason: string) => void): UserDelivery | undefined {
  const checked = checkContract(userDeliverySchema, data);
  if (checked.ok) return checked.value;
  onInvalid(checked.reason);
  return undefined;
}
