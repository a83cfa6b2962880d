/**
 * The SFU's RPC (issue 8; DESIGN.md "sfu/"): the backend drives the media service over NATS request/reply
 * (on the in-process bus under `npm start`). Requests are JSON; every answer is an `SfuReply`. mediasoup's own
 * parameter objects (RTP capabilities and parameters, DTLS and ICE parameters) pass through opaquely: the SFU
 * checks them, and they are typed here only as far as the backend and the browser need.
 *
 * Rooms are calls (roomId = matchId), peers are users (peerId = userId): the backend names both from its own
 * records, never from what a client says.
 */

/** mediasoup's parameter objects, carried as they are. */
export type MediaParameters = Record<string, unknown>;
export type MediaKind = 'audio' | 'video';

/** A transport as mediasoup-client's createSendTransport / createRecvTransport take it. */
export interface TransportOptions {
  id: string;
  iceParameters: MediaParameters;
  iceCandidates: MediaParameters[];
  dtlsParameters: MediaParameters;
}

export interface ProducerInfo {
  producerId: string;
  peerId: string;
  kind: MediaKind;
}

export type SfuRequest =
  | { type: 'createRoom'; roomId: string }
  /** A peer's send and receive transports, made at once; an earlier pair of the same peer is closed. */
  | { type: 'joinRoom'; roomId: string; peerId: string }
  | {
      type: 'connectTransport';
      roomId: string;
      peerId: string;
      transportId: string;
      dtlsParameters: MediaParameters;
    }
  | { type: 'produce'; roomId: string; peerId: string; kind: MediaKind; rtpParameters: MediaParameters }
  /** A paused consumer on the peer's receive transport; resumed once the client says it is ready. */
  | { type: 'consume'; roomId: string; peerId: string; producerId: string; rtpCapabilities: MediaParameters }
  | { type: 'resumeConsumer'; roomId: string; peerId: string; consumerId: string }
  | { type: 'closeRoom'; roomId: string }
  /** One frame of the peer's video, taken by the server (report evidence the reporter cannot fake). */
  | { type: 'snapshot'; roomId: string; peerId: string }
  | { type: 'load' };

export interface WorkerLoad {
  pid: number;
  rooms: number;
  transports: number;
  producers: number;
  consumers: number;
  /** Share of one core the worker used since the last reading, 0..1. */
  cpu: number;
}

export interface SfuLoad {
  nodeId: string;
  workers: WorkerLoad[];
  /** Why relay is off on this node (no worker could be had), or null when it is on. */
  disabledReason: string | null;
  at: string;
}

export interface Snapshot {
  /** The JPEG, base64. */
  jpeg: string;
  sha256: string;
  width: number;
  height: number;
  takenAt: string;
}

/** What each request answers when it succeeds. */
export interface SfuAnswers {
  createRoom: { nodeId: string; roomId: string; routerRtpCapabilities: MediaParameters };
  joinRoom: {
    routerRtpCapabilities: MediaParameters;
    sendTransport: TransportOptions;
    recvTransport: TransportOptions;
    /** The other peers' producers already in the room. */
    producers: ProducerInfo[];
  };
  connectTransport: { connected: true };
  produce: { producerId: string };
  consume: { consumerId: string; producerId: string; kind: MediaKind; rtpParameters: MediaParameters };
  resumeConsumer: { resumed: true };
  closeRoom: { closed: boolean };
  snapshot: Snapshot;
  load: SfuLoad;
}

export type SfuErrorCode =
  /** No such room, peer, transport or producer (ended, or never there). */
  | 'not-found'
  /** Parameters mediasoup refused. */
  | 'invalid'
  /** The peer is in the room but sends no video (camera off, or not produced yet). */
  | 'no-video'
  /** No worker: relay and snapshots are off on this node. */
  | 'unavailable'
  | 'failed';

export type SfuReply<T = unknown> =
  { ok: true; result: T } | { ok: false; error: { code: SfuErrorCode; reason: string } };

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

export interface RoomLost {
  nodeId: string;
  roomId: string;
  reason: string;
}

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
