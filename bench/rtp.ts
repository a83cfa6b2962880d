/**
 * Synthetic RTP for the SFU benchmark: one reusable packet per stream, rewritten in place before each send,
 * carrying a probe (stream, send slot, send time) that survives the relay so the receiver measures loss and latency.
 */

/** What the receiver reads back: which stream, which generator slot it was sent in, and when (monotonic ms). */
export interface Probe {
  stream: number;
  slot: number;
  sentAtMs: number;
}

export type MediaKind = 'audio' | 'video';

export interface StreamShape {
  kind: MediaKind;
  payloadType: number;
  ssrc: number;
  /** RTP payload bytes, probe included. */
  payloadBytes: number;
}

const RTP_HEADER_BYTES = 12;
const PROBE_MAGIC = 0x5345_5244; // "SERD"
/** magic u32, stream u32, slot u32, sentAtMs f64: the last bytes of every payload, where VP8 rewrites can't reach. */
export const PROBE_BYTES = 20;
const AUDIO_CLOCK_STEP = 960; // 20 ms at 48 kHz
const VIDEO_CLOCK_STEP = 3_600; // 25 frames/s at 90 kHz
/** Every 25th frame is a key frame: a consumer starts forwarding VP8 only at one (it ignores our PLIs' absence). */
export const KEY_FRAME_EVERY = 25;
/** VP8 payload descriptor (RFC 7741 4.2): X and I set with a 15-bit PictureID, so mediasoup never shifts bytes. */
const VP8_DESCRIPTOR_BYTES = 4;

/**
 * One RTP stream: audio sends one packet per 20 ms; video sends a 25 frame/s picture as two packets, the first
 * starting the frame (VP8 S bit, frame tag marking key or inter frame), the second ending it (RTP marker).
 */
export class RtpStreamWriter {
  readonly packet: Buffer;
  private sequence: number;
  private timestamp: number;
  private packetIndex = 0;

  constructor(
    readonly stream: number,
    readonly shape: StreamShape,
    seed = stream,
  ) {
    const minimum = PROBE_BYTES + (shape.kind === 'video' ? VP8_DESCRIPTOR_BYTES + 10 : 0);
    if (shape.payloadBytes < minimum) throw new Error(`a ${shape.kind} payload needs at least ${minimum} bytes`);
    this.packet = Buffer.alloc(RTP_HEADER_BYTES + shape.payloadBytes, 0x5a);
    this.sequence = (seed * 7919) & 0xffff;
    this.timestamp = (seed * 104_729) >>> 0;
    this.packet[0] = 0x80; // version 2, no padding, no extension, no CSRC
    this.packet.writeUInt32BE(shape.ssrc >>> 0, 8);
    this.packet.writeUInt32BE(PROBE_MAGIC, this.packet.length - PROBE_BYTES);
    this.packet.writeUInt32BE(stream >>> 0, this.packet.length - PROBE_BYTES + 4);
  }

  /** Rewrites the packet for its next send and returns it (the same buffer every time). */
  next(slot: number, sentAtMs: number): Buffer {
    const p = this.packet;
    const video = this.shape.kind === 'video';
    const frameStart = !video || this.packetIndex % 2 === 0;
    const frameEnd = !video || this.packetIndex % 2 === 1;
    p[1] = (frameEnd ? 0x80 : 0) | (this.shape.payloadType & 0x7f);
    p.writeUInt16BE(this.sequence, 2);
    p.writeUInt32BE(this.timestamp >>> 0, 4);
    if (video) this.writeVp8(Math.floor(this.packetIndex / 2), frameStart);
    p.writeUInt32BE(slot >>> 0, p.length - PROBE_BYTES + 8);
    p.writeDoubleBE(sentAtMs, p.length - PROBE_BYTES + 12);
    this.sequence = (this.sequence + 1) & 0xffff;
    if (frameEnd) this.timestamp = (this.timestamp + (video ? VIDEO_CLOCK_STEP : AUDIO_CLOCK_STEP)) >>> 0;
    this.packetIndex++;
    return p;
  }

  private writeVp8(frame: number, frameStart: boolean): void {
    const at = RTP_HEADER_BYTES;
    const p = this.packet;
    p[at] = frameStart ? 0x90 : 0x80; // X, and S on the frame's first packet; partition 0
    p[at + 1] = 0x80; // I: a PictureID follows
    p.writeUInt16BE(0x8000 | (frame & 0x7fff), at + 2); // M bit: 15-bit PictureID
    if (!frameStart) return;
    // VP8 frame tag (RFC 6386 9.1): bit 0 clear marks a key frame, which mediasoup checks; show_frame set.
    const key = frame % KEY_FRAME_EVERY === 0;
    const tag = at + VP8_DESCRIPTOR_BYTES;
    p[tag] = (key ? 0 : 1) | 0x10;
    p[tag + 1] = 0x02;
    p[tag + 2] = 0x00;
    if (key) {
      p[tag + 3] = 0x9d; // key frame start code
      p[tag + 4] = 0x01;
      p[tag + 5] = 0x2a;
      p.writeUInt16LE(640, tag + 6);
      p.writeUInt16LE(480, tag + 8);
    }
  }
}

/** RTCP shares the port when rtcp-mux is on (RFC 5761 4): packet types 192..223 are not RTP. */
export function isRtcp(packet: Buffer): boolean {
  return packet.length >= 2 && packet[1]! >= 192 && packet[1]! <= 223;
}

/** The probe at the end of an RTP packet, or undefined for RTCP and anything that is not ours. */
export function readProbe(packet: Buffer): Probe | undefined {
  if (packet.length < RTP_HEADER_BYTES + PROBE_BYTES || isRtcp(packet) || packet[0]! >> 6 !== 2) return undefined;
  const at = packet.length - PROBE_BYTES;
  if (packet.readUInt32BE(at) !== PROBE_MAGIC) return undefined;
  return {
    stream: packet.readUInt32BE(at + 4),
    slot: packet.readUInt32BE(at + 8),
    sentAtMs: packet.readDoubleBE(at + 12),
  };
}

/** The RTP header fields a test or a sanity check wants to see. */
export function readRtpHeader(packet: Buffer) {
  return {
    version: packet[0]! >> 6,
    marker: (packet[1]! & 0x80) !== 0,
    payloadType: packet[1]! & 0x7f,
    sequence: packet.readUInt16BE(2),
    timestamp: packet.readUInt32BE(4),
    ssrc: packet.readUInt32BE(8),
  };
}

/** What mediasoup's VP8 parser (worker/src/RTC/Codecs/VP8.cpp) would decide about this packet. */
export function vp8KeyFrameStart(packet: Buffer): boolean {
  const at = RTP_HEADER_BYTES;
  const extended = (packet[at]! & 0x80) !== 0;
  const start = (packet[at]! & 0x10) !== 0;
  const partition = packet[at]! & 0x07;
  if (!extended || !start || partition !== 0) return false;
  const pictureIdBytes = packet[at + 1]! & 0x80 ? (packet[at + 2]! & 0x80 ? 2 : 1) : 0;
  return (packet[at + 2 + pictureIdBytes]! & 0x01) === 0;
}
