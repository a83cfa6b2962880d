import type { MatchFilters, MatchFound, PartnerLeftReason, PartnerProfile } from '@serendip/proto';

/**
 * What the video gateways (on any backend node) and the one matchmaker (the leader, DESIGN.md "Processes and roles")
 * say to each other over the bus. Both ends are this codebase, so these stay in the backend, not in proto.
 */
export const MATCHING_REQUESTS_SUBJECT = 'matching.requests';
/** Only the leader subscribes; the queue group keeps a request from reaching two nodes that both think they lead. */
export const MATCHMAKER_QUEUE = 'matchmaker';

/** The server's own view of a user who asks to be matched: never the client's claims (issue 7). */
export interface SeekerProfile {
  gender: 'male' | 'female';
  /** issue 8 "hide my IP": this user's calls are relayed. */
  hideIp: boolean;
  age: number;
  country: string | null;
  /** What the partner is shown (spec 3 "Partner data on a match"), minus the socket id, added at pairing. */
  public: Omit<PartnerProfile, 'socketId'>;
}

export type CoordinatorRequest =
  | { kind: 'start'; userId: string; socketId: string; profile: SeekerProfile; filters: MatchFilters }
  /** A leave, a skip, or a call given up because its connection never came up ('timeout'). */
  | { kind: 'leave'; userId: string; socketId: string; reason: 'leave' | 'skip' | 'timeout' }
  | { kind: 'socket-lost'; userId: string; socketId: string }
  /** A socket that came back and says which call it was in. */
  | { kind: 'resume'; userId: string; socketId: string; matchId: string }
  | { kind: 'rtc-connected'; userId: string; socketId: string; matchId: string }
  /** auto mode: this side's peer connection did not come up; move the call to the SFU. */
  | { kind: 'fallback'; userId: string; socketId: string; matchId: string }
  /** The SFU lost the call's room (its worker died). */
  | { kind: 'room-lost'; matchId: string; sfuNode: string };

/** Published on `user.<id>`; the gateways holding that user's sockets act on it. */
export type UserDelivery =
  /** To one socket: the call it is now in (found, or resumed after a blip). */
  | {
      kind: 'match';
      socketId: string;
      event: 'matchFound' | 'matchResumed';
      match: MatchFound;
      /** The SFU node of a relayed call: the gateway sends its media requests there (never told to the client). */
      sfuNode?: string;
    }
  /** To the sockets in that call: its media now goes through the SFU on this node (moved, or made again). */
  | { kind: 'media-path'; matchId: string; sfuNode: string; event: 'media:path' | 'media:reconnect' }
  /** To the sockets in that call: the partner left it, for this reason. */
  | { kind: 'partner-left'; matchId: string; reason: PartnerLeftReason }
  /** To one socket that asked to resume a call that is over. */
  | { kind: 'call-over'; socketId: string; matchId: string }
  | { kind: 'fully-connected'; matchId: string }
  /** To one socket: another tab of the same user took over matching. */
  | { kind: 'replaced'; socketId: string }
  /** To one socket: the server could not pair it (the log refused the pairing); the search is over. */
  | { kind: 'unavailable'; socketId: string }
  /** From the partner's gateway: a relay of one of the client events, already validated there. */
  | { kind: 'relay'; matchId: string; from: string; event: RelayEvent; payload: Record<string, unknown> };

export type RelayEvent =
  | 'offer'
  | 'answer'
  | 'ice-candidate'
  | 'chatMessage'
  | 'mic-toggle'
  | 'camera-toggle'
  | 'speaking-status'
  | 'partner-network-quality'
  | 'media:producer';
