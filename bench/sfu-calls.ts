/**
 * 1:1 calls for the SFU benchmark, set up as the SFU does: one router per call, each peer sending audio
 * and video to it and receiving the other's. Plain RTP transports stand in for the browsers' WebRTC transports, so
 * the relay work (RTP parsing, VP8 descriptor rewriting, sequence/timestamp rewriting, RTCP) is the real one.
 */
import type { types } from 'mediasoup';
import { RtpStreamWriter, type MediaKind, type StreamShape } from './rtp.js';
import { localPort, receivingSocket, sendingSocket, type RtpGenerator } from './rtp-traffic.js';

/**
 * A copy of the router's codecs in sfu/src/media/media-codecs.ts (keep in step): @serendip/sfu exports only its
 * service, and its `MEDIA_CODECS` module is not reachable from another project's build.
 */
const MEDIA_CODECS: types.RtpCodecCapability[] = [
  { kind: 'audio', mimeType: 'audio/opus', clockRate: 48_000, channels: 2 },
  { kind: 'video', mimeType: 'video/VP8', clockRate: 90_000, parameters: { 'x-google-start-bitrate': 1_000 } },
  {
    kind: 'video',
    mimeType: 'video/H264',
    clockRate: 90_000,
    parameters: { 'packetization-mode': 1, 'profile-level-id': '42e01f', 'level-asymmetry-allowed': 1 },
  },
];
const LOOPBACK = '127.0.0.1';
/** ~40 kbit/s opus: 50 packets/s of 100 bytes. */
const AUDIO = { kind: 'audio', payloadBytes: 100 } as const;
/** ~440 kbit/s VP8: 25 frames/s, two 1,100-byte packets each. */
const VIDEO = { kind: 'video', payloadBytes: 1_100 } as const;
const PAYLOAD_TYPE: Record<MediaKind, number> = { audio: 100, video: 101 };

/** What a finished call leaves to measure: the ports whose kernel drop counters matter. */
export interface OpenCall {
  workerPorts: number[];
  benchReceivePorts: number[];
  close(): void;
}

function mimeType(kind: MediaKind): string {
  const codec = MEDIA_CODECS.find((c) => c.kind === kind && (kind === 'audio' || c.mimeType === 'video/VP8'));
  if (!codec) throw new Error(`the SFU's codecs have no ${kind === 'audio' ? 'opus' : 'VP8'}`);
  return codec.mimeType;
}

let nextSsrc = 0x1000_0000;

/** A peer's audio and video streams, each with an SSRC of its own. */
function shapes(): StreamShape[] {
  return [AUDIO, VIDEO].map((s) => ({ ...s, payloadType: PAYLOAD_TYPE[s.kind], ssrc: nextSsrc++ }));
}

function producerParameters(shape: StreamShape): types.RtpParameters {
  const codec = MEDIA_CODECS.find((c) => c.mimeType === mimeType(shape.kind))!;
  return {
    codecs: [
      {
        mimeType: codec.mimeType,
        payloadType: shape.payloadType,
        clockRate: codec.clockRate,
        ...(codec.channels ? { channels: codec.channels } : {}),
      },
    ],
    encodings: [{ ssrc: shape.ssrc }],
  };
}

/** One call relayed by its own router on the given worker; the generator starts sending its 4 streams at once. */
export async function openRelayedCall(worker: types.Worker, generator: RtpGenerator): Promise<OpenCall> {
  const router = await worker.createRouter({ mediaCodecs: MEDIA_CODECS });
  const listenIp = { ip: LOOPBACK };
  const peers = await Promise.all(
    [0, 1].map(async () => {
      // NOTE: comedia: the send transport learns the peer's address from its first packet, as ICE would.
      const send = await router.createPlainTransport({ listenIp, rtcpMux: true, comedia: true });
      const receive = await router.createPlainTransport({ listenIp, rtcpMux: true, comedia: false });
      const inbox = await receivingSocket(generator);
      await receive.connect({ ip: LOOPBACK, port: localPort(inbox) });
      const outbox = await sendingSocket(send.tuple.localPort);
      return { send, receive, inbox, outbox, shapes: shapes() };
    }),
  );
  for (const [i, peer] of peers.entries()) {
    const other = peers[1 - i]!;
    for (const shape of peer.shapes) {
      const producer = await peer.send.produce({ kind: shape.kind, rtpParameters: producerParameters(shape) });
      // Resumed at once: no client here to ack; the stream's own key frames start each VP8 consumer.
      await other.receive.consume({ producerId: producer.id, rtpCapabilities: router.rtpCapabilities, paused: false });
    }
  }
  for (const peer of peers) {
    for (const shape of peer.shapes) generator.add(new RtpStreamWriter(generator.streams, shape), peer.outbox);
  }
  return {
    workerPorts: peers.flatMap((p) => [p.send.tuple.localPort, p.receive.tuple.localPort]),
    benchReceivePorts: peers.map((p) => localPort(p.inbox)),
    close: () => {
      router.close();
      for (const p of peers) [p.inbox, p.outbox].forEach((s) => s.close());
    },
  };
}

/** The baseline's call: the same peers and streams, each peer sending straight to the other over loopback. */
export async function openDirectCall(generator: RtpGenerator): Promise<OpenCall> {
  const inboxes = await Promise.all([0, 1].map(() => receivingSocket(generator)));
  const outboxes = await Promise.all(inboxes.map((_, i) => sendingSocket(localPort(inboxes[1 - i]!))));
  for (const outbox of outboxes) {
    for (const shape of shapes()) {
      generator.add(new RtpStreamWriter(generator.streams, shape), outbox);
    }
  }
  return {
    workerPorts: [],
    benchReceivePorts: inboxes.map(localPort),
    close: () => [...inboxes, ...outboxes].forEach((s) => s.close()),
  };
}
