import type {
  MediaConnectRequest,
  MediaConsumeAnswer,
  MediaConsumeRequest,
  MediaJoinAnswer,
  MediaParameters,
  MediaProduceRequest,
  MediaResumeRequest,
  TransportOptions,
} from '@serendip/proto';
import type { types } from 'mediasoup-client';
import { logError } from '../../shared/log';

/** The relay's signalling: each call a request over the video socket that the server acks. */
export interface RelaySignalling {
  join(): Promise<MediaJoinAnswer>;
  connect(request: MediaConnectRequest): Promise<void>;
  produce(request: MediaProduceRequest): Promise<{ producerId: string }>;
  consume(request: MediaConsumeRequest): Promise<MediaConsumeAnswer>;
  resume(request: MediaResumeRequest): Promise<void>;
}

/** What a relayed call tells its media session: how its transports are, and each partner track as it comes. */
export interface RelayListener {
  connectionState(state: RTCPeerConnectionState): void;
  track(track: MediaStreamTrack): void;
}

/** A mediasoup Device for this browser; tests give one on mediasoup-client's FakeHandler. */
export type DeviceLoader = () => Promise<types.Device>;

// The library is fetched only by calls that relay (the first visit stays small).
const browserDevice: DeviceLoader = async () => (await import('mediasoup-client')).Device.factory();

/** Thrown inside a join that was overtaken by a close (a skip, a new call): nobody waits for it any more. */
class RelayClosed extends Error {}

/**
 * One call through the SFU: a mediasoup Device, a send and a receive transport, our producers and the partner's
 * consumers. Made for one join and thrown away on close (a Device loads one router's capabilities once).
 */
export class RelayCall {
  private isClosed = false;
  private device: types.Device | null = null;
  private send: types.Transport | null = null;
  private recv: types.Transport | null = null;
  /** Partner producers heard of (the join's answer and `media:producer` can both name one). */
  private readonly known = new Set<string>();
  /** Heard of before the receive transport was there. */
  private readonly waiting: string[] = [];
  private state: RTCPeerConnectionState = 'new';

  constructor(
    private readonly signal: RelaySignalling,
    private readonly listener: RelayListener,
    private readonly loadDevice: DeviceLoader = browserDevice,
  ) {}

  /** Joins the call's room and sends `tracks`; resolves once they are produced. Quietly stops if closed meanwhile. */
  async join(tracks: MediaStreamTrack[]): Promise<void> {
    try {
      await this.joinRoom(tracks);
    } catch (error) {
      if (!(error instanceof RelayClosed) && !this.isClosed) throw error;
    }
  }

  /** A partner producer to receive; consumed at once, or as soon as the receive transport is ready. */
  addProducer(producerId: string) {
    if (this.isClosed || this.known.has(producerId)) return;
    this.known.add(producerId);
    this.waiting.push(producerId);
    void this.consumeWaiting();
  }

  close() {
    if (this.isClosed) return;
    this.isClosed = true;
    this.waiting.length = 0;
    // Closing a transport closes its producers (our tracks stay: stopTracks is off) and consumers (their tracks end).
    this.send?.close();
    this.recv?.close();
    this.send = null;
    this.recv = null;
    this.device = null;
  }

  private async joinRoom(tracks: MediaStreamTrack[]) {
    // The library loads while the server joins us to the room.
    const [device, answer] = await Promise.all([this.loadDevice(), this.signal.join()]);
    this.ensureOpen();
    await device.load({ routerRtpCapabilities: answer.routerRtpCapabilities as types.RtpCapabilities });
    this.ensureOpen();
    this.device = device;

    const send = this.watch(device.createSendTransport(transportOptions(answer.sendTransport)));
    send.on('produce', ({ kind, rtpParameters }, done, fail) => {
      this.signal.produce({ kind, rtpParameters: asParameters(rtpParameters) }).then(
        ({ producerId }) => done({ id: producerId }),
        (error: unknown) => fail(asError(error)),
      );
    });
    this.send = send;
    this.recv = this.watch(device.createRecvTransport(transportOptions(answer.recvTransport)));

    // The partner's tracks already in the room, then any announced while we were joining.
    answer.producers.forEach(({ producerId }) => this.addProducer(producerId));
    void this.consumeWaiting();

    for (const track of tracks) {
      this.ensureOpen();
      // NOTE: stopTracks off: the camera and the microphone outlive the call (spec 4: a skip keeps the local stream).
      await send.produce({ track, stopTracks: false });
    }
  }

  private watch(transport: types.Transport) {
    transport.on('connect', ({ dtlsParameters }, done, fail) => {
      this.signal
        .connect({ transportId: transport.id, dtlsParameters: asParameters(dtlsParameters) })
        .then(done, (error: unknown) => fail(asError(error)));
    });
    transport.on('connectionstatechange', () => this.stateChanged());
    return transport;
  }

  private async consumeWaiting() {
    const { recv, device } = this;
    if (!recv || !device) return;
    for (const producerId of this.waiting.splice(0)) {
      try {
        await this.consume(recv, device, producerId);
      } catch (error) {
        // A track that cannot be received leaves its transport unconnected: the call's timeout moves on.
        if (!this.isClosed && !(error instanceof RelayClosed)) logError('A partner track could not be received', error);
      }
    }
  }

  private async consume(recv: types.Transport, device: types.Device, producerId: string) {
    const answer = await this.signal.consume({ producerId, rtpCapabilities: asParameters(device.recvRtpCapabilities) });
    this.ensureOpen();
    const consumer = await recv.consume({
      id: answer.consumerId,
      producerId: answer.producerId,
      kind: answer.kind,
      rtpParameters: answer.rtpParameters as types.RtpParameters,
    });
    this.ensureOpen();
    this.listener.track(consumer.track);
    // NOTE: the server made the consumer paused; resuming once our side is ready lets the first keyframe land.
    await this.signal.resume({ consumerId: consumer.id });
  }

  private stateChanged() {
    if (this.isClosed || !this.send || !this.recv) return;
    const state = relayConnectionState(this.send.connectionState, this.recv.connectionState);
    if (state === this.state) return;
    this.state = state;
    this.listener.connectionState(state);
  }

  private ensureOpen() {
    if (this.isClosed) throw new RelayClosed('the relayed call was closed');
  }
}

/** Both transports as one connection state, the way a peer connection reports it (the saga acts on that). */
export function relayConnectionState(send: types.ConnectionState, recv: types.ConnectionState): RTCPeerConnectionState {
  const states = [send, recv];
  if (states.includes('failed')) return 'failed';
  if (states.includes('closed')) return 'closed';
  if (states.includes('disconnected')) return 'disconnected';
  if (states.every((state) => state === 'connected')) return 'connected';
  if (states.every((state) => state === 'new')) return 'new';
  return 'connecting';
}

// mediasoup's parameter objects pass through the server as they are (proto types them as opaque records).
const transportOptions = (options: TransportOptions) => options as unknown as types.TransportOptions;
const asParameters = (value: object) => value as MediaParameters;
const asError = (error: unknown) => (error instanceof Error ? error : new Error(String(error)));
