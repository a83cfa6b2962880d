/**
 * What the video gateways (on any backend node) and the one matchmaker (the leader, DESIGN.md "Processes and roles")
 * say to each other over the bus. The messages are proto contracts (proto/src/bus/matching.ts), parsed where they
 * arrive: a message that does not fit is logged and dropped, never thrown.
 */
import type { CoordinatorRequest } from '@serendip/proto';

export {
  type CoordinatorRequest,
  GATEWAY_HEARTBEAT_MS,
  gatewayAliveSchema,
  parseCoordinatorRequest,
  parseUserDelivery,
  type RelayEvent,
  type SeekerProfile,
  type UserDelivery,
} from '@serendip/proto';

export const MATCHING_REQUESTS_SUBJECT = 'matching.requests';
/**
 * A node that has just become the matchmaker says so once it takes requests. It starts with an empty queue (the last
 * leader's died with it), so every gateway asks again for each of its sockets still searching.
 */
export const MATCHMAKER_LEADS_SUBJECT = 'matching.leader';
/** Only the leader subscribes; the queue group keeps a request from reaching two nodes that both think they lead. */
export const MATCHMAKER_QUEUE = 'matchmaker';

/**
 * What the coordinator handles: the gateways' requests, and what the leader itself hears on the bus and asks of it
 * (these never travel the request subject). A ban ends the banned user's search or call at once (spec 3 "Ban").
 */
export type LeaderRequest =
  | CoordinatorRequest
  | { kind: 'banned'; userId: string }
  /** A gateway node whose heartbeats stopped: its sockets are lost. */
  | { kind: 'node-lost'; node: string };

/** Where each gateway node says it is alive (GATEWAY_HEARTBEAT_MS); the leader hears every node. */
export const GATEWAY_ALIVE_SUBJECT = 'matching.gateways';
