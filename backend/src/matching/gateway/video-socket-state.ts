/** What the video gateway keeps on each socket (`socket.data`); the relayed-call helpers read it too. */
export interface VideoSocketState {
  userId: string;
  /** The sign-in session it was opened with: when that session ends, the socket closes (spec 3). */
  sessionId: string;
  /** The call this socket is in, as the matchmaker told it (relays go to this partner only). */
  matchId?: string;
  partnerId?: string;
  /** The SFU node of the call while it is relayed; media requests go there, and no SDP or ICE relays. */
  sfuNode?: string;
}
