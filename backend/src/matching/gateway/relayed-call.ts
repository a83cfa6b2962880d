import type { SfuClient } from '../media/sfu-client.js';
import type { RelayName } from './relays.js';
import type { VideoSocketState } from './video-socket-state.js';

/** The caller's relayed call, from the server's own record: room and peer ids are never the client's. */
export interface RelayedCall {
  matchId: string;
  partnerId: string;
  userId: string;
  sfuNode: string;
}
export type ZodLikeError = { issues: readonly { path: readonly PropertyKey[]; message: string }[] };
export type MediaRequest = Parameters<SfuClient['send']>[1];

export function relayedCall({ matchId, partnerId, userId, sfuNode }: VideoSocketState): RelayedCall | undefined {
  return matchId && partnerId && sfuNode ? { matchId, partnerId, userId, sfuNode } : undefined;
}

/** connect, consume, resume: the SFU request for a checked client request, under the caller's own ids. */
export const connect = (r: { transportId: string; dtlsParameters: Record<string, unknown> }, call: RelayedCall) =>
  ({ type: 'connectTransport', roomId: call.matchId, peerId: call.userId, ...r }) as const;
export const consume = (r: { producerId: string; rtpCapabilities: Record<string, unknown> }, call: RelayedCall) =>
  ({ type: 'consume', roomId: call.matchId, peerId: call.userId, ...r }) as const;
export const resume = (r: { consumerId: string }, call: RelayedCall) =>
  ({ type: 'resumeConsumer', roomId: call.matchId, peerId: call.userId, ...r }) as const;

/** Peer-to-peer signalling carries IP addresses: none of it passes in a relayed call. */
export const PEER_SIGNALLING = new Set<RelayName>(['offer', 'answer', 'ice-candidate']);
