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
  /** Every transport of the peer: its send and receive pair, and any the server attached (see attachProducer). */
  transports: Map<string, types.Transport>;
  producers: Map<string, types.Producer>;
  consumers: Map<string, types.Consumer>;
}

/** A transport, producer or consumer: its observer says 'close' however it closed. */
interface Observed {
  id: string;
  observer: { once(event: 'close', listener: () => void): unknown };
}

const PEER_NOT_FOUND = 'That peer has not joined the room.';

/**
 * A call's media: one router, and per peer a send and a receive WebRTC transport with the producers
 * and consumers on them. Every map drops its entry on the object's own close event, whatever closed it (the
 * client, the router, a dying worker), so nothing outlives the room.
 */
export class Room {
  private readonly peers = new Map<string, Peer>();
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

  /** A re-join (reload, reconnect) replaces the peer's transports, and with them its media. */
  async join(peerId: string): Promise<SfuAnswers['joinRoom']> {
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
      consumers: new Map(),
    };
    this.track(peer.transports, sendTransport);
    this.track(peer.transports, recvTransport);
    for (const transport of [sendTransport, recvTransport]) this.watchConnection(transport);
    if (this.closedFlag) {
      // The router closed while the transports were being made; they closed with it.
      throw new SfuError('not-found', 'The room closed.');
    }
    // Left only now, after the awaits, so that two joins racing still leave one pair behind.
    this.leave(peerId);
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
    // A camera and a microphone: more would flood the partner with tracks and this worker with load.
    if ([...peer.producers.values()].some((p) => p.kind === kind)) {
      throw new SfuError('invalid', `This peer already sends ${kind}.`);
    }
    const producer = await peer.sendTransport.produce({
      kind,
      rtpParameters: rtpParameters as unknown as types.RtpParameters,
    });
    this.track(peer.producers, producer);
    return producer.id;
  }

  /**
   * Adopts a producer the server made for the peer on a transport of its own (a server-side media source; the
   * tests feed ffmpeg's RTP through a PlainTransport this way). Both close with the peer.
   */
  attachProducer(peerId: string, transport: types.Transport, producer: types.Producer): void {
    const peer = this.peer(peerId);
    this.track(peer.transports, transport);
    this.track(peer.producers, producer);
  }

  async consume(peerId: string, producerId: string, rtpCapabilities: MediaParameters): Promise<SfuAnswers['consume']> {
    const peer = this.peer(peerId);
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
    const consumer = await peer.recvTransport.consume({ producerId, rtpCapabilities: capabilities, paused: true });
    this.track(peer.consumers, consumer);
    return {
      consumerId: consumer.id,
      producerId,
      kind: consumer.kind,
      rtpParameters: consumer.rtpParameters as unknown as MediaParameters,
    };
  }

  async resumeConsumer(peerId: string, consumerId: string): Promise<void> {
    const consumer = this.peer(peerId).consumers.get(consumerId);
    if (!consumer) throw new SfuError('not-found', 'No such consumer for this peer.');
    await consumer.resume();
    // The receiver starts decoding only at a keyframe; ask the sender for one now rather than wait for the next.
    if (consumer.kind === 'video') await consumer.requestKeyFrame();
  }

  /** The peer's live video producer, for a server snapshot. */
  videoProducer(peerId: string): types.Producer {
    const peer = this.peers.get(peerId);
    if (!peer) throw new SfuError('not-found', 'That user is not in a relayed call.');
    const video = [...peer.producers.values()].find((producer) => producer.kind === 'video' && !producer.paused);
    if (!video) throw new SfuError('no-video', 'That user is not sending video.');
    return video;
  }

  private peer(peerId: string): Peer {
    const peer = this.peers.get(peerId);
    if (!peer) throw new SfuError('not-found', PEER_NOT_FOUND);
    return peer;
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
