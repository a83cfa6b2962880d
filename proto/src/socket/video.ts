import { z } from 'zod/mini';
import type { Gender } from '../http/auth.js';
import type { MediaKind, MediaParameters, ProducerInfo, TransportOptions } from '../sfu/rpc.js';
import type { SocketErrorAnswer } from './system.js';

/**
 * The video socket (spec 7 "Real-time video socket", spec 4 "Match flow"): its own Socket.IO namespace
 * on the API host. The server knows who the user is from the session cookie at the handshake and pairs people
 * from their real profile; the client only says what it is looking for. Relays (offer, answer, ICE, chat,
 * toggles) go to the sender's current partner only, whatever `target` the client names.
 */
export const VIDEO_NAMESPACE = '/video';

/** spec 9 and spec 5: the wizard's slider runs 18 to 110; the minimum never exceeds the maximum. */
export const MATCH_AGE = { min: 18, max: 110 } as const;

/** spec 9 "Match" constants the client times its flow by. */
export const MATCH_TIMING = {
  /** startMatching is sent this long after the camera and microphone are granted. */
  startDelayMs: 500,
  /** A peer connection that has not connected by then is skipped ('Connection Failed. Trying another match...'). */
  connectionTimeoutMs: 10_000,
  remoteVideoAttempts: 5,
  remoteVideoRetryMs: 1_000,
  remoteVideoMissingElementRetryMs: 500,
  networkQualityEveryMs: 1_000,
  /** Mean audio level (0..255) above which the user counts as speaking. */
  speakingLevel: 20,
  feedbackThanksMs: 1_500,
} as const;

/** Chat messages longer than this are refused by the server (and cut by the client's input). */
export const CHAT_MESSAGE_MAX_LENGTH = 1_000;

/**
 * A socket that drops is given this long to come back before its partner is told (partnerDisconnected) and
 * re-queued; Socket.IO's own reconnection (spec 9: every 2 s) lands well within it.
 */
export const MATCH_RECONNECT_GRACE_MS = 10_000;

/** After a skip, the skipper is not paired with that partner again for this long (DESIGN.md "Matching"). */
export const SKIP_COOLDOWN_MS = 10 * 60_000;

const countryCode = z.string().check(z.regex(/^[A-Z]{2}$/, 'country must be an ISO 3166-1 alpha-2 code, e.g. "DE"'));
const age = z.int().check(z.gte(MATCH_AGE.min), z.lte(MATCH_AGE.max));

/** Shared interests: at most this many tags, each 1-24 letters, digits, spaces or hyphens (trimmed, lower-cased). */
export const INTERESTS = { max: 5, maxLength: 24 } as const;
/**
 * A user with interests is held for partners who share one for at most this long after they start waiting; then
 * anyone compatible will do (Omegle's behaviour).
 */
export const INTEREST_WAIT_MS = 5_000;

const interest = z
  .string()
  .check(
    z.trim(),
    z.toLowerCase(),
    z.minLength(1, 'an interest needs some text'),
    z.maxLength(INTERESTS.maxLength, `an interest has at most ${INTERESTS.maxLength} characters`),
    z.regex(/^[\p{L}\p{N} -]+$/u, 'an interest has only letters, digits, spaces and hyphens'),
  );

/**
 * spec 3 "Match filters": gender or null (anyone), country or null (anywhere), an age range [min, max], and up to
 * five interests (optional; the same one twice counts once).
 */
export const matchFiltersSchema = z.object({
  gender: z.nullable(z.enum(['male', 'female'])),
  country: z.nullable(countryCode),
  ageRange: z
    .tuple([age, age])
    .check(z.refine(([min, max]) => min <= max, 'the minimum age must not exceed the maximum')),
  interests: z.optional(
    z.array(interest).check(
      z.maxLength(INTERESTS.max, `at most ${INTERESTS.max} interests`),
      z.overwrite((tags) => [...new Set(tags)]),
    ),
  ),
});
export type MatchFilters = z.infer<typeof matchFiltersSchema>;

export const startMatchingSchema = z.object({
  filters: matchFiltersSchema,
  /** spec 3: the client's layout, shown to the partner (mobile when the window is at most 768 px wide). */
  deviceType: z.enum(['mobile', 'desktop']),
});
export type StartMatchingRequest = z.infer<typeof startMatchingSchema>;

/**
 * `target` is the partner's per-match id (MatchFound.partnerId): a relay naming anything else is refused, and the
 * server relays to its own record of who the partner is.
 */
const relay = { target: z.string().check(z.maxLength(64)) };

export const sessionDescriptionSchema = z.object({
  ...relay,
  description: z.object({
    type: z.enum(['offer', 'answer']),
    sdp: z.string().check(z.maxLength(100_000)),
  }),
});
export type SessionDescriptionRelay = z.infer<typeof sessionDescriptionSchema>;

export const iceCandidateSchema = z.object({
  ...relay,
  candidate: z.object({
    candidate: z.string().check(z.maxLength(2_000)),
    sdpMid: z.optional(z.nullable(z.string().check(z.maxLength(64)))),
    sdpMLineIndex: z.optional(z.nullable(z.int().check(z.gte(0), z.lte(64)))),
    usernameFragment: z.optional(z.nullable(z.string().check(z.maxLength(256)))),
  }),
});
export type IceCandidateRelay = z.infer<typeof iceCandidateSchema>;

export const chatMessageSchema = z.object({
  ...relay,
  /**
   * The sender's own id of the line (optional): a line sent again (its partner was away meanwhile) keeps it, and the
   * partner shows it once.
   */
  id: z.optional(z.string().check(z.minLength(1), z.maxLength(64))),
  message: z.string().check(
    z.maxLength(CHAT_MESSAGE_MAX_LENGTH, `a message has at most ${CHAT_MESSAGE_MAX_LENGTH} characters`),
    z.refine((text) => text.trim().length > 0, 'a message needs some text'),
  ),
});
export type ChatMessageRequest = z.infer<typeof chatMessageSchema>;

/** The sender is typing in the chat (sent at most once per `CHAT_TIMING.typingEveryMs` while they type). */
export const typingSchema = z.object({ ...relay });
export type TypingRelay = z.infer<typeof typingSchema>;

/** How the chat's typing indicator is timed (the server also rate-limits `typing` per socket). */
export const CHAT_TIMING = {
  /** While the user types, `typing` goes at most this often. */
  typingEveryMs: 2_000,
  /** The partner's "... is typing" shows this long after the last `typing` heard. */
  typingShownMs: 3_000,
} as const;

export const toggleSchema = z.object({ ...relay, enabled: z.boolean() });
export type ToggleRelay = z.infer<typeof toggleSchema>;

export const speakingSchema = z.object({ ...relay, speaking: z.boolean() });
export type SpeakingRelay = z.infer<typeof speakingSchema>;

/** spec 9: from the downlink speed, under 1 poor, under 5 good, 5 or more excellent; also offline and unknown. */
export const NETWORK_QUALITIES = ['excellent', 'good', 'poor', 'offline', 'unknown'] as const;
export type NetworkQuality = (typeof NETWORK_QUALITIES)[number];
export const networkQualitySchema = z.object({ ...relay, quality: z.enum(NETWORK_QUALITIES) });
export type NetworkQualityRelay = z.infer<typeof networkQualitySchema>;

export const rtcConnectedSchema = z.object({ ...relay });
export type RtcConnectedRelay = z.infer<typeof rtcConnectedSchema>;

/**
 * Ends the call or the search. `next: true` searches again at once: a skip, or (with `failed`) a call whose
 * connection never came up (spec 4), which is no skip: no cooldown, and the log says timeout, not skip.
 */
export const leaveVideoRoomSchema = z.object({ next: z.boolean(), failed: z.optional(z.boolean()) });
export type LeaveVideoRoomRequest = z.infer<typeof leaveVideoRoomSchema>;

/**
 * spec 3 "Partner data on a match": what one stranger learns of the other. No surname, e-mail, city or birth date, and
 * no lasting id: `_id` and `socketId` are the partner's per-match id, which names them in this match only.
 */
export interface PartnerProfile {
  _id: string;
  socketId: string;
  firstName: string;
  userAge: number;
  gender: Gender;
  /** ISO 3166-1 alpha-2, or null when unknown. */
  country: string | null;
  avatar: string | null;
  isAdmin: boolean;
  deviceType: 'mobile' | 'desktop';
}

/** An RTCIceServer as the browser takes it: STUN, or TURN with short-lived credentials (coturn REST scheme). */
export interface IceServer {
  urls: string[];
  username?: string;
  credential?: string;
}

export interface MatchFound {
  matchId: string;
  /**
   * The partner's per-match id: opaque, new in every match (the same two people get new ones next time), never
   * their user id. Relays from the partner say it as `from`; relays to them name it as `target`.
   */
  partnerId: string;
  partnerUser: PartnerProfile;
  /** spec 4: the peer with the lower socket id creates the offer; the server compares and says which one you are. */
  role: 'offerer' | 'answerer';
  iceServers: IceServer[];
  /** How the media goes: peer to peer, or through the SFU (relay mode, "hide my IP", or a failed p2p). */
  media: MediaPath;
  /**
   * auto mode: a peer connection not up within `MEDIA_TIMING.p2pFallbackMs` (or failed) asks for the SFU
   * (`media:fallback`) instead of skipping. False when relay is off or the call already relays.
   */
  relayFallback: boolean;
  /**
   * The interests both chose (filters.interests), in the order this side listed them; empty when none. This server
   * always sends it; a leader of an older version during a rolling deploy does not.
   */
  sharedInterests?: string[];
}

export type MediaPath = 'p2p' | 'relay';

/**
 * `MEDIA_MODE`: `p2p` never relays; `relay` relays every call; `auto` (the default) starts peer to peer and
 * moves a call to the SFU when its connection has not come up within `MEDIA_TIMING.p2pFallbackMs`.
 */
export const MEDIA_MODES = ['p2p', 'relay', 'auto'] as const;
export type MediaMode = (typeof MEDIA_MODES)[number];

export const MEDIA_TIMING = {
  /** In auto mode, a peer connection not connected by then (or failed) moves to the SFU instead of skipping. */
  p2pFallbackMs: 4_000,
} as const;

/** Why a call is relayed (kept in the match's history for audit). */
/** 'report': a side opened the Report dialog, so the server can take its own snapshot of the reported side. */
export type RelayReason = 'relay-mode' | 'hide-ip' | 'p2p-failed' | 'report';

// The SFU's own parameters: the gateway checks their shape and size, the SFU (mediasoup) their content.
const mediaParameters = z
  .record(z.string(), z.unknown())
  .check(z.refine((value) => JSON.stringify(value).length <= 20_000, 'the parameters are too large'));
const id = z.string().check(z.minLength(1), z.maxLength(64));

export const mediaConnectSchema = z.object({ transportId: id, dtlsParameters: mediaParameters });
export type MediaConnectRequest = z.infer<typeof mediaConnectSchema>;
export const mediaProduceSchema = z.object({ kind: z.enum(['audio', 'video']), rtpParameters: mediaParameters });
export type MediaProduceRequest = z.infer<typeof mediaProduceSchema>;
export const mediaConsumeSchema = z.object({ producerId: id, rtpCapabilities: mediaParameters });
export type MediaConsumeRequest = z.infer<typeof mediaConsumeSchema>;
export const mediaResumeSchema = z.object({ consumerId: id });
export type MediaResumeRequest = z.infer<typeof mediaResumeSchema>;
/** auto mode: this side's peer connection did not come up; the call should move to the SFU. */
export const mediaFallbackSchema = z.object({ ...relay });
export type MediaFallbackRequest = z.infer<typeof mediaFallbackSchema>;

export interface MediaJoinAnswer {
  routerRtpCapabilities: MediaParameters;
  sendTransport: TransportOptions;
  recvTransport: TransportOptions;
  /** The partner's producers already there; later ones come as `media:producer`. */
  producers: Omit<ProducerInfo, 'peerId'>[];
}
export type MediaConsumeAnswer = {
  consumerId: string;
  producerId: string;
  kind: MediaKind;
  rtpParameters: MediaParameters;
};
type Answer<T> = (answer: T | SocketErrorAnswer) => void;

/** Why a call ended for the one who stayed. */
export type PartnerLeftReason = 'skip' | 'leave' | 'disconnect' | 'ban';

/** What the server says to a client's startMatching: queued (or already in a call), or why not. */
export type StartMatchingAck = (answer: { status: 'searching' | 'matched' } | SocketErrorAnswer) => void;
export type RelayAck = (answer: { ok: true } | SocketErrorAnswer) => void;

export interface VideoClientToServerEvents {
  startMatching: (request: StartMatchingRequest, ack?: StartMatchingAck) => void;
  leaveVideoRoom: (request: LeaveVideoRoomRequest, ack?: RelayAck) => void;
  offer: (request: SessionDescriptionRelay, ack?: RelayAck) => void;
  answer: (request: SessionDescriptionRelay, ack?: RelayAck) => void;
  'ice-candidate': (request: IceCandidateRelay, ack?: RelayAck) => void;
  'rtc-connected': (request: RtcConnectedRelay, ack?: RelayAck) => void;
  sendChatMessage: (request: ChatMessageRequest, ack?: RelayAck) => void;
  typing: (request: TypingRelay, ack?: RelayAck) => void;
  'mic-toggle': (request: ToggleRelay, ack?: RelayAck) => void;
  'camera-toggle': (request: ToggleRelay, ack?: RelayAck) => void;
  'speaking-status': (request: SpeakingRelay, ack?: RelayAck) => void;
  'network-quality': (request: NetworkQualityRelay, ack?: RelayAck) => void;
  'media:join': (request: Record<string, never>, ack: Answer<MediaJoinAnswer>) => void;
  'media:connect': (request: MediaConnectRequest, ack: RelayAck) => void;
  'media:produce': (request: MediaProduceRequest, ack: Answer<{ producerId: string }>) => void;
  'media:consume': (request: MediaConsumeRequest, ack: Answer<MediaConsumeAnswer>) => void;
  'media:resume': (request: MediaResumeRequest, ack: RelayAck) => void;
  'media:fallback': (request: MediaFallbackRequest, ack?: RelayAck) => void;
  /**
   * This side opened the Report dialog: a peer-to-peer call moves to the SFU (when one is available) so the server's
   * own snapshot of the reported side exists. Same payload as media:fallback (the partner's id in this call).
   */
  'report:opened': (request: MediaFallbackRequest, ack?: RelayAck) => void;
}

export interface VideoServerToClientEvents {
  matchFound: (match: MatchFound) => void;
  /** After a reconnect within the grace period: the call is still on (same match, same partner). */
  matchResumed: (match: MatchFound) => void;
  chatMessage: (message: { from: string; message: string; sentAt: string; id?: string }) => void;
  offer: (relay: { from: string; description: SessionDescriptionRelay['description'] }) => void;
  answer: (relay: { from: string; description: SessionDescriptionRelay['description'] }) => void;
  'ice-candidate': (relay: { from: string; candidate: IceCandidateRelay['candidate'] }) => void;
  partnerDisconnected: (event: { matchId: string; reason: PartnerLeftReason }) => void;
  /** The partner is typing in the chat. */
  typing: (relay: { from: string }) => void;
  /** The partner's socket dropped: the call is held for MATCH_RECONNECT_GRACE_MS while they may come back. */
  partnerReconnecting: (event: { matchId: string }) => void;
  /**
   * The partner came back within the grace period: the call goes on. `mediaRestart`: they came back on a new page (a
   * reload, a new tab), their media went with the old one: peer to peer, this side offers a new connection (the
   * server made it the offerer); relayed, their new tracks come as media:producer.
   */
  partnerReconnected: (event: { matchId: string; mediaRestart?: boolean }) => void;
  'mic-toggle': (relay: { from: string; enabled: boolean }) => void;
  'camera-toggle': (relay: { from: string; enabled: boolean }) => void;
  'speaking-status': (relay: { from: string; speaking: boolean }) => void;
  'partner-network-quality': (relay: { from: string; quality: NetworkQuality }) => void;
  /** Both sides said rtc-connected: the call is up for both. */
  'rtc-fully-connected': (event: { matchId: string }) => void;
  /** The call moved to the SFU (auto mode after a failed peer connection): close the peer, join the room. */
  'media:path': (event: { matchId: string; path: MediaPath }) => void;
  /** The partner sends a new track through the SFU: consume it. */
  'media:producer': (event: { from: string; producerId: string; kind: MediaKind }) => void;
  /** The SFU lost the call's room (its worker died); a new one is ready: join again. */
  'media:reconnect': (event: { matchId: string }) => void;
  /** A refused event or handshake: `reason` is for people, `code` for the client's logic. */
  videoError: (error: { code: VideoErrorCode; reason: string }) => void;
}

export type VideoErrorCode =
  | 'unauthenticated'
  | 'signup-unfinished'
  | 'banned'
  | 'invalid'
  | 'rate-limited'
  | 'not-in-call'
  /** A media request for a call that is not relayed, or the SFU refused it. */
  | 'media'
  | 'replaced'
  /** startMatching from an account whose e-mail address is not confirmed yet: the mailed link puts it right. */
  | 'email-unconfirmed'
  /** The server could not do it now (its store or bus failed): the search or call is over, try again later. */
  | 'unavailable';

/** Connection refusals at the handshake come as Socket.IO connect_error with this `data`. */
export interface VideoHandshakeRefusal {
  code: Extract<VideoErrorCode, 'unauthenticated' | 'signup-unfinished' | 'banned' | 'rate-limited'>;
  reason: string;
}

/**
 * What a video socket's handshake (Socket.IO `auth`) may say: the call it was in, to resume it within
 * MATCH_RECONNECT_GRACE_MS; `fresh` when it comes from a new page (a reload, a new tab) rather than a blip, so the
 * call's media starts over. A value of the wrong kind is refused with a reason (videoError 'invalid'): nothing resumes.
 */
export const videoHandshakeAuthSchema = z.object({
  matchId: z.optional(z.string().check(z.minLength(1), z.maxLength(64))),
  fresh: z.optional(z.boolean()),
});
export type VideoHandshakeAuth = z.infer<typeof videoHandshakeAuthSchema>;

export const VIDEO_EVENTS = {
  startMatching: 'startMatching',
  leaveVideoRoom: 'leaveVideoRoom',
  offer: 'offer',
  answer: 'answer',
  iceCandidate: 'ice-candidate',
  rtcConnected: 'rtc-connected',
  sendChatMessage: 'sendChatMessage',
  typing: 'typing',
  micToggle: 'mic-toggle',
  cameraToggle: 'camera-toggle',
  speakingStatus: 'speaking-status',
  networkQuality: 'network-quality',
  mediaJoin: 'media:join',
  mediaConnect: 'media:connect',
  mediaProduce: 'media:produce',
  mediaConsume: 'media:consume',
  mediaResume: 'media:resume',
  mediaFallback: 'media:fallback',
  reportOpened: 'report:opened',
} as const satisfies Record<string, keyof VideoClientToServerEvents>;
