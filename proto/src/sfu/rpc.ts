import { z } from 'zod/mini';
import { checkContract, type ContractCheck, type Expect, type TypesMatch } from '../contract.js';

/**
 * The SFU's RPC (DESIGN.md "Shape"): the backend drives the media service over NATS request/reply (on the in-process
 * bus under `npm start`). Requests are JSON; every answer is an `SfuReply`. Each side parses what it receives
 * against these schemas, and the TypeScript types are derived from them, so the two cannot drift. mediasoup's own
 * parameter objects (RTP capabilities and parameters, DTLS and ICE parameters) pass through as opaque records:
 * mediasoup checks their content.
 *
 * Rooms are calls (roomId = matchId), peers are users (peerId = userId): the backend names both from its own
 * records, never from what a client says.
 */

/** mediasoup's parameter objects, carried as they are. */
export const mediaParametersSchema = z.record(z.string(), z.unknown());
export type MediaParameters = z.infer<typeof mediaParametersSchema>;
export const mediaKindSchema = z.enum(['audio', 'video']);
export type MediaKind = z.infer<typeof mediaKindSchema>;

const id = z.string().check(z.minLength(1));
const room = { roomId: id };
const peer = { roomId: id, peerId: id };

/** A call's two users, from the backend's match record: the only peers the room ever takes. */
const roomPeers = z.tuple([id, id]).check(z.refine(([a, b]) => a !== b, 'must name two different peers'));

export const sfuRequestSchema = z.discriminatedUnion('type', [
  /** The room of a call, with its two peers: joinRoom, consume, snapshot and the rest refuse any other peer id. */
  z.object({ type: z.literal('createRoom'), ...room, peerIds: roomPeers }),
  /** A peer's send and receive transports, made at once; an earlier pair of the same peer is closed. */
  z.object({ type: z.literal('joinRoom'), ...peer }),
  z.object({ type: z.literal('connectTransport'), ...peer, transportId: id, dtlsParameters: mediaParametersSchema }),
  z.object({ type: z.literal('produce'), ...peer, kind: mediaKindSchema, rtpParameters: mediaParametersSchema }),
  /** A paused consumer on the peer's receive transport; resumed once the client says it is ready. */
  z.object({ type: z.literal('consume'), ...peer, producerId: id, rtpCapabilities: mediaParametersSchema }),
  z.object({ type: z.literal('resumeConsumer'), ...peer, consumerId: id }),
  z.object({ type: z.literal('closeRoom'), ...room }),
  /** One frame of the peer's video, taken by the server (report evidence the reporter cannot fake). */
  z.object({ type: z.literal('snapshot'), ...peer }),
  z.object({ type: z.literal('load') }),
]);
export type SfuRequest = z.infer<typeof sfuRequestSchema>;
export type SfuRequestType = SfuRequest['type'];

/** A transport as mediasoup-client's createSendTransport / createRecvTransport take it. */
export const transportOptionsSchema = z.object({
  id,
  iceParameters: mediaParametersSchema,
  iceCandidates: z.array(mediaParametersSchema),
  dtlsParameters: mediaParametersSchema,
});
export type TransportOptions = z.infer<typeof transportOptionsSchema>;

export const producerInfoSchema = z.object({ producerId: id, peerId: id, kind: mediaKindSchema });
export type ProducerInfo = z.infer<typeof producerInfoSchema>;

const count = z.int().check(z.gte(0));

export const workerLoadSchema = z.object({
  pid: count,
  rooms: count,
  transports: count,
  producers: count,
  consumers: count,
  /** Share of one core the worker used since the last reading, 0..1. */
  cpu: z.number().check(z.gte(0)),
});
export type WorkerLoad = z.infer<typeof workerLoadSchema>;

/** Each node's announcement on `SFU_SUBJECTS.load`, and the answer to a `load` request. */
export const sfuLoadSchema = z.object({
  nodeId: id,
  workers: z.array(workerLoadSchema),
  /** Why relay is off on this node (no worker could be had), or null when it is on. */
  disabledReason: z.nullable(z.string()),
  at: z.string(),
});
export type SfuLoad = z.infer<typeof sfuLoadSchema>;

export const snapshotSchema = z.object({
  /** The JPEG, base64. */
  jpeg: z.string(),
  sha256: z.string(),
  width: count,
  height: count,
  takenAt: z.string(),
});
export type Snapshot = z.infer<typeof snapshotSchema>;

/** What each request answers when it succeeds. */
export const sfuAnswerSchemas = {
  createRoom: z.object({ nodeId: id, roomId: id, routerRtpCapabilities: mediaParametersSchema }),
  joinRoom: z.object({
    routerRtpCapabilities: mediaParametersSchema,
    sendTransport: transportOptionsSchema,
    recvTransport: transportOptionsSchema,
    /** The other peers' producers already in the room. */
    producers: z.array(producerInfoSchema),
  }),
  connectTransport: z.object({ connected: z.literal(true) }),
  produce: z.object({ producerId: id }),
  consume: z.object({ consumerId: id, producerId: id, kind: mediaKindSchema, rtpParameters: mediaParametersSchema }),
  resumeConsumer: z.object({ resumed: z.literal(true) }),
  closeRoom: z.object({ closed: z.boolean() }),
  snapshot: snapshotSchema,
  load: sfuLoadSchema,
} satisfies { [T in SfuRequestType]: z.ZodMiniType };
export type SfuAnswers = { [T in SfuRequestType]: z.infer<(typeof sfuAnswerSchemas)[T]> };

export const SFU_ERROR_CODES = [
  /**
   * No such room, peer, transport or producer (ended, or never there); also a peer id that is not one of the room's
   * two, which is told nothing more.
   */
  'not-found',
  /** Parameters mediasoup refused. */
  'invalid',
  /** The peer is in the room but sends no video (camera off, or not produced yet). */
  'no-video',
  /** No worker (relay and snapshots are off on this node), or the node holds as many rooms as its ports allow. */
  'unavailable',
  'failed',
] as const;
export type SfuErrorCode = (typeof SFU_ERROR_CODES)[number];

/** Every reply; the result inside is checked against the request's answer schema (`checkSfuAnswer`). */
export const sfuReplySchema = z.discriminatedUnion('ok', [
  z.object({ ok: z.literal(true), result: z.unknown() }),
  z.object({ ok: z.literal(false), error: z.object({ code: z.enum(SFU_ERROR_CODES), reason: z.string() }) }),
]);
export type SfuReply<T = unknown> =
  { ok: true; result: T } | { ok: false; error: { code: SfuErrorCode; reason: string } };
// SfuReply is generic over its result, which a schema cannot be: this keeps the two the same shape.
type _SfuReplyMatches = Expect<TypesMatch<z.infer<typeof sfuReplySchema>, SfuReply>>;

/** Checks a request the SFU received; the reason names the field. */
export function checkSfuRequest(data: unknown): ContractCheck<SfuRequest> {
  return checkContract(sfuRequestSchema, data);
}

/** Checks the result of a successful reply against what `type` answers. */
export function checkSfuAnswer<T extends SfuRequestType>(type: T, data: unknown): ContractCheck<SfuAnswers[T]> {
  // The schema is looked up by `type`, which TypeScript cannot tie to `SfuAnswers[T]` on its own.
  return checkContract(sfuAnswerSchemas[type], data) as ContractCheck<SfuAnswers[T]>;
}

export const SFU_SUBJECTS = {
  /** Any node takes it (queue group `sfu`); the answer names the node that holds the room. */
  createRoom: 'sfu.rooms.create',
  /** Everything else about a room goes to the node that holds it. */
  node: (nodeId: string) => `sfu.node.${nodeId}`,
  /** Each node's load, every few seconds (the admin dashboard, later the placement of rooms). */
  load: 'sfu.load',
  /** A room closed by the SFU itself (its worker died): the call must reconnect its media. */
  roomLost: 'sfu.rooms.lost',
} as const;
export const SFU_QUEUE = 'sfu';

export const roomLostSchema = z.object({ nodeId: id, roomId: id, reason: z.string() });
export type RoomLost = z.infer<typeof roomLostSchema>;

/**
 * How the SFU reaches the bus: NATS request/reply when standalone, the backend's bus when it runs in-process.
 * `serve` answers requests on a subject; a queue group shares them among the nodes.
 */
export interface SfuRpcPort {
  serve(
    subject: string,
    handler: (request: unknown) => Promise<unknown>,
    options?: { queue?: string },
  ): { close(): Promise<void> };
  publish(subject: string, data: unknown): Promise<void>;
}
