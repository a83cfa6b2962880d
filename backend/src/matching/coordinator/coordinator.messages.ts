/**
 * What the video gateways (on any backend node) and the one matchmaker (the leader, DESIGN.md "Processes and roles")
 * say to each other over the bus. The messages are proto contracts (proto/src/bus/matching.ts), parsed where they
 * arrive: a message that does not fit is logged and dropped, never thrown.
 */
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
