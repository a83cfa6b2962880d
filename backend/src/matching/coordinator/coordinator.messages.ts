/**
 * What the video gateways (on any backend node) and the one matchmaker (the leader, DESIGN.md "Processes and roles")
 * say to each other over the bus. The messages are proto contracts (proto/src/bus/matching.ts), parsed where they
 * arrive: a message that does not fit is logged and dropped, never thrown.
 */
import type { CoordinatorRequest } from '@serendip/proto';

export {
  type CoordinatorRequest,
  parseCoordinatorRequest,
  parseUserDelivery,
  type RelayEvent,
  type SeekerProfile,
  type UserDelivery,
} from '@serendip/proto';

export const MATCHING_REQUESTS_SUBJECT = 'matching.requests';
/** Only the leader subscribes; the queue group keeps a request from reaching two nodes that both think they lead. */
export const MATCHMAKER_QUEUE = 'matchmaker';

/**
 * What the coordinator handles: the gateways' requests, and what the leader itself hears on the bus and asks of it
 * (these never travel the request subject). A ban ends the banned user's search or call at once (spec 3 "Ban").
 */
export type LeaderRequest = CoordinatorRequest | { kind: 'banned'; userId: string };
