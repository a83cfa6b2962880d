/** What the video gateway keeps on each socket (`socket.data`); the relayed-call helpers read it too. */
export interface VideoSocketState {
  userId: string;
  /** The call this socket is in, as the matchmaker told it (relays go to this partner only). */
  matchId?: string;
  partnerId?: string;
  /** The SFU node of the call while it is relayed; media requests go there, and no SDP or ICE relays. */
  sfuNode?: string;
}
