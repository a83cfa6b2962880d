import type { MatchFilters, PublicProfile, RelayReason } from '@serendip/proto';
import type { SeekerProfile } from '../coordinator/coordinator.messages.js';

/** What the video gateway keeps on each socket (`socket.data`); the relayed-call helpers read it too. */
export interface VideoSocketState {
  userId: string;
  /** The sign-in session it was opened with: when that session ends, the socket closes (spec 3). */
  sessionId: string;
  /** The call this socket is in, as the matchmaker told it (relays go to this partner only). */
  matchId?: string;
  /** The partner's user id: the server's own, never told to the client. */
  partnerId?: string;
  /** The partner's per-match id, the only name the client has for them (MatchFound.partnerId, relays' from/target). */
  partnerAlias?: string;
  /** The SFU node of the call while it is relayed; media requests go there, and no SDP or ICE relays. */
  sfuNode?: string;
  /** Why the call is relayed (told to a new leader with the node: adopt). */
  relayReason?: RelayReason;
  /**
   * What it asked the matchmaker for while it searches (until paired, refused or it leaves): a new leader starts with
   * an empty queue, and the gateway asks again with this.
   */
  seeking?: { seekId: string; profile: SeekerProfile; filters: MatchFilters };
  /** The call it asked to come back to, until the matchmaker answers (asked again of a new one). */
  resuming?: { matchId: string; fresh?: boolean };
  /** The rest of what the matchmaker said of the call (a new leader is told of it: adopt). */
  call?: { role: 'offerer' | 'answerer'; sharedInterests: string[]; partner: PublicProfile; own?: PublicProfile };
  /** Its user was banned: it only waits to close, and every event from it is refused. */
  restricted?: boolean;
}
