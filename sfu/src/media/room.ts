import type { MediaKind, MediaParameters, ProducerInfo, SfuAnswers, TransportOptions } from '@serendip/proto';
import type { types } from 'mediasoup';
import { SfuError } from './sfu-error.js';

/** Where WebRTC transports listen and what address their ICE candidates announce. */
export interface RoomNetwork {
  listenIp: string;
  /** The public address browsers reach; without it the candidates carry `listenIp`. */
  announcedIp?: string;
}

export interface RoomCounts {
  transports: number;
  producers: number;
  consumers: number;
}

interface Peer {
  sendTransport: types.WebRtcTransport;
  recvTransport: types.WebRtcTransport;
  /** Every transport of the peer: its send and receive pair, and any the server attached (see produceFrom). */
  transports: Map<string, types.Transport>;
  producers: Map<string, types.Producer>;
  /** The kinds of the producers being made: a second of a kind is refused even while the first is on its way. */
  producing: Set<MediaKind>;
  consumers: Map<string, types.Consumer>;
  /** The peer's consumer of each producer, by producer id, also while it is being made: one each. */
  consumerOf: Map<string, Promise<types.Consumer>>;
}

/** A transport, producer or consumer: its observer says 'close' however it closed. */
interface Observed {
  id: string;
  observer: { once(event: 'close', listener: () => void): unknown };
}

const PEER_NOT_FOUND = 'That peer has not joined the room.';
const NOT_A_PEER = 'That peer is not in this call.';

/**
 * The least time between two keyframe requests reaching a sender, whoever asks (a consumer's resume, a receiver's
 * RTCP PLI or FIR): each costs the sender a keyframe's bandwidth, so a receiver asking nonstop would multiply
 * its partner's upload. A decoder that lost a keyframe waits at most this long for the next.
 */
export const KEY_FRAME_REQUEST_DELAY_MS = 1_000;

/**
 * A call's media: one router, and per peer a send and a receive WebRTC transport with the producers
 * and consumers on them. Only the call's two peers, named when the room is made, may join. Every map drops its
 * entry on the object's own close event, whatever closed it (the client, the router, a dying worker), so nothing
 * outlives the room.
 */
export class Room {
  private readonly peers = new Map<string, Peer>();
  /** Each peer's join in progress: a peer's joins run one after another, so it never holds more than one pair. */
  private readonly joining = new Map<string, Promise<unknown>>();
  private closedFlag = false;
  /** When a browser's transport was last connected (or the room made): an abandoned room is closed (`idleFor`). */
  private lastConnectedAt = Date.now();
  private connectedTransports = 0;

  /**
   * @param onClosed called once when the room closes; `lost` is true when its worker died under it rather than
   *   someone closing it.
   */
  constructor(
    readonly id: string,
    /** The call's two users, from the backend's record; no other peer id gets anything from this room. */
    readonly peerIds: readonly [string, string],
    readonly router: types.Router,
    private readonly network: RoomNetwork,
    onClosed: (room: Room, lost: boolean) => void,
  ) {
    let lost = false;
    router.on('workerclose', () => (lost = true));
    router.observer.on('close', () => {
      this.closedFlag = true;
      this.peers.clear();
      onClosed(this, lost);
    });
  }

  get closed(): boolean {
    return this.closedFlag;
  }

  /** Closing twice is harmless: the router ignores it. */
  close(): void {
    this.router.close();
  }

  /** How long no browser has been connected to this room (0 while one is). */
  idleFor(now = Date.now()): number {
    return this.connectedTransports > 0 ? 0 : now - this.lastConnectedAt;
  }

  counts(): RoomCounts {
    const counts = { transports: 0, producers: 0, consumers: 0 };
    for (const peer of this.peers.values()) {
      counts.transports += peer.transports.size;
      counts.producers += peer.producers.size;
      counts.consumers += peer.consumers.size;
    }
    return counts;
  }

  /**
   * A re-join (reload, reconnect) replaces the peer's transports, and with them its media. The earlier pair is
   * closed before the new one is made, and a peer's joins wait for each other: however many a client sends at
   * once, it holds one pair of ports (a node's rooms are capped by its ports, see WorkerPool).
   */
  async join(peerId: string): Promise<SfuAnswers['joinRoom']> {
    this.member(peerId);
    const joined = (this.joining.get(peerId) ?? Promise.resolve())
      .catch(() => undefined)
      .then(() => this.joinNow(peerId));
    this.joining.set(peerId, joined);
    void joined
      .catch(() => undefined)
      .then(() => {
        if (this.joining.get(peerId) === joined) this.joining.delete(peerId);
      });
    return joined;
  }

  private async joinNow(peerId: string): Promise<SfuAnswers['joinRoom']> {
    if (this.closedFlag) throw new SfuError('not-found', 'The room closed.');
    this.leave(peerId);
    const sendTransport = await this.createWebRtcTransport();
    const recvTransport = await this.createWebRtcTransport().catch((error: unknown) => {
      sendTransport.close();
      throw error;
    });
    const peer: Peer = {
      sendTransport,
      recvTransport,
      transports: new Map(),
      producers: new Map(),
      producing: new Set(),
      consumers: new Map(),
      consumerOf: new Map(),
    };
    this.track(peer.transports, sendTransport);
    this.track(peer.transports, recvTransport);
    for (const transport of [sendTransport, recvTransport]) this.watchConnection(transport);
    if (this.closedFlag) {
      // The router closed while the transports were being made; they closed with it.
      throw new SfuError('not-found', 'The room closed.');
    }
    this.peers.set(peerId, peer);
    return {
      routerRtpCapabilities: this.router.rtpCapabilities as MediaParameters,
      sendTransport: transportOptions(sendTransport),
      recvTransport: transportOptions(recvTransport),
      producers: this.producersBesides(peerId),
    };
  }

  async connectTransport(peerId: string, transportId: string, dtlsParameters: MediaParameters): Promise<void> {
    const transport = this.peer(peerId).transports.get(transportId);
    if (!transport) throw new SfuError('not-found', 'No such transport for this peer.');
    await transport.connect({ dtlsParameters });
  }

  async produce(peerId: string, kind: MediaKind, rtpParameters: MediaParameters): Promise<string> {
    const peer = this.peer(peerId);
    return (await this.newProducer(peer, peer.sendTransport, kind, rtpParameters)).id;
  }

  /**
   * The peer's producer on a transport the server made (a server-side media source; the tests feed ffmpeg's RTP
   * through a PlainTransport this way), under the same rules as a browser's. Both close with the peer.
   */
  async produceFrom(
    peerId: string,
    transport: types.Transport,
    kind: MediaKind,
    rtpParameters: types.RtpParameters,
  ): Promise<types.Producer> {
    const peer = this.peer(peerId);
    this.track(peer.transports, transport);
    return this.newProducer(peer, transport, kind, rtpParameters as unknown as MediaParameters);
  }

  private async newProducer(
    peer: Peer,
    transport: types.Transport,
    kind: MediaKind,
    rtpParameters: MediaParameters,
  ): Promise<types.Producer> {
    // A camera and a microphone: more would flood the partner with tracks and this worker with load.
    if (peer.producing.has(kind) || [...peer.producers.values()].some((p) => p.kind === kind)) {
      throw new SfuError('invalid', `This peer already sends ${kind}.`);
    }
    peer.producing.add(kind);
    try {
      const producer = await transport.produce({
        kind,
        rtpParameters: rtpParameters as unknown as types.RtpParameters,
        keyFrameRequestDelay: KEY_FRAME_REQUEST_DELAY_MS,
      });
      this.track(peer.producers, producer);
      return producer;
    } finally {
      peer.producing.delete(kind);
    }
  }

  /**
   * The peer's consumer of another peer's producer. Asked again for the same producer, it answers the consumer it
   * already has: each consumer is a copy of the stream the worker sends, so more would multiply the bandwidth one
   * peer can draw through the SFU.
   */
  async consume(peerId: string, producerId: string, rtpCapabilities: MediaParameters): Promise<SfuAnswers['consume']> {
    const peer = this.peer(peerId);
    const consumer = await (peer.consumerOf.get(producerId) ?? this.newConsumer(peer, producerId, rtpCapabilities));
    return {
      consumerId: consumer.id,
      producerId,
      kind: consumer.kind,
      rtpParameters: consumer.rtpParameters as unknown as MediaParameters,
    };
  }

  private newConsumer(peer: Peer, producerId: string, rtpCapabilities: MediaParameters): Promise<types.Consumer> {
    if (peer.producers.has(producerId)) throw new SfuError('invalid', 'A peer cannot consume its own media.');
    // Only another peer's producer in this same room.
    const producerOwned = [...this.peers.values()].some((other) => other.producers.has(producerId));
    if (!producerOwned) throw new SfuError('not-found', 'No such producer in this room.');
    const capabilities = rtpCapabilities as unknown as types.RtpCapabilities;
    if (!this.router.canConsume({ producerId, rtpCapabilities: capabilities })) {
      throw new SfuError('invalid', 'The receiver cannot decode this media (no common codec).');
    }
    // NOTE: paused until the client has wired the track and says so (resumeConsumer), or the first keyframe
    // would arrive before anyone can decode it.
    const made = peer.recvTransport.consume({ producerId, rtpCapabilities: capabilities, paused: true }).then(
      (consumer) => {
        this.track(peer.consumers, consumer);
        consumer.observer.once('close', () => {
          if (peer.consumerOf.get(producerId) === made) peer.consumerOf.delete(producerId);
        });
        return consumer;
      },
      (error: unknown) => {
        peer.consumerOf.delete(producerId);
        throw error;
      },
    );
    peer.consumerOf.set(producerId, made);
    return made;
  }

  /**
   * Starts a paused consumer; a running one is left as it is. The worker asks the sender for a keyframe as the
   * consumer starts (and again when its transport connects), so the receiver can decode at once; a repeated resume
   * asks for nothing more.
   */
  async resumeConsumer(peerId: string, consumerId: string): Promise<void> {
    const consumer = this.peer(peerId).consumers.get(consumerId);
    if (!consumer) throw new SfuError('not-found', 'No such consumer for this peer.');
    if (consumer.paused) await consumer.resume();
  }

  /** The peer's live video producer, for a server snapshot. */
  videoProducer(peerId: string): types.Producer {
    const peer = this.peerIds.includes(peerId) ? this.peers.get(peerId) : undefined;
    if (!peer) throw new SfuError('not-found', 'That user is not in a relayed call.');
    const video = [...peer.producers.values()].find((producer) => producer.kind === 'video' && !producer.paused);
    if (!video) throw new SfuError('no-video', 'That user is not sending video.');
    return video;
  }

  private peer(peerId: string): Peer {
    this.member(peerId);
    const peer = this.peers.get(peerId);
    if (!peer) throw new SfuError('not-found', PEER_NOT_FOUND);
    return peer;
  }

  /** Refuses a peer id that is not one of the call's two, whatever it asks. */
  private member(peerId: string): void {
    if (!this.peerIds.includes(peerId)) throw new SfuError('not-found', NOT_A_PEER);
  }

  private leave(peerId: string): void {
    const peer = this.peers.get(peerId);
    if (!peer) return;
    this.peers.delete(peerId);
    // Closing a transport closes its producers and consumers, and the other peers' consumers of them.
    for (const transport of [...peer.transports.values()]) transport.close();
  }

  private producersBesides(peerId: string): ProducerInfo[] {
    const infos: ProducerInfo[] = [];
    for (const [otherId, other] of this.peers) {
      if (otherId === peerId) continue;
      for (const producer of other.producers.values()) {
        infos.push({ producerId: producer.id, peerId: otherId, kind: producer.kind });
      }
    }
    return infos;
  }

  private createWebRtcTransport(): Promise<types.WebRtcTransport> {
    const { listenIp, announcedIp } = this.network;
    return this.router.createWebRtcTransport({
      listenIps: [announcedIp ? { ip: listenIp, announcedIp } : { ip: listenIp }],
      enableUdp: true,
      enableTcp: true,
      preferUdp: true,
    });
  }

  private watchConnection(transport: types.WebRtcTransport): void {
    let connected = false;
    const set = (now: boolean) => {
      if (now === connected) return;
      connected = now;
      this.connectedTransports += now ? 1 : -1;
      this.lastConnectedAt = Date.now();
    };
    transport.on('dtlsstatechange', (state) => set(state === 'connected'));
    transport.observer.once('close', () => set(false));
  }

  private track<T extends Observed>(map: Map<string, T>, item: T): void {
    map.set(item.id, item);
    item.observer.once('close', () => map.delete(item.id));
  }
}

function transportOptions(transport: types.WebRtcTransport): TransportOptions {
  return {
    id: transport.id,
    iceParameters: transport.iceParameters as unknown as MediaParameters,
    iceCandidates: transport.iceCandidates as unknown as MediaParameters[],
    dtlsParameters: transport.dtlsParameters as unknown as MediaParameters,
  };
}

/** Whether two lists name the same peers, in any order. */
export function samePeers(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((peerId) => b.includes(peerId));
}
