import { describe, expect, it } from 'vitest';
import { isRtcp, KEY_FRAME_EVERY, readProbe, readRtpHeader, RtpStreamWriter, vp8KeyFrameStart } from './rtp.js';

const audio = { kind: 'audio', payloadType: 100, ssrc: 0x1234_5678, payloadBytes: 100 } as const;
const video = { kind: 'video', payloadType: 101, ssrc: 0x0abc_def0, payloadBytes: 1_100 } as const;

describe('synthetic RTP', () => {
  it('writes a probe the reader gets back', () => {
    const writer = new RtpStreamWriter(7, audio);
    const packet = writer.next(42, 1234.5678);
    expect(packet.length).toBe(12 + 100);
    expect(readProbe(packet)).toEqual({ stream: 7, slot: 42, sentAtMs: 1234.5678 });
  });

  it('advances audio by one packet and 20 ms of 48 kHz clock per send', () => {
    const writer = new RtpStreamWriter(0, audio);
    const first = readRtpHeader(Buffer.from(writer.next(0, 0)));
    const second = readRtpHeader(Buffer.from(writer.next(4, 20)));
    expect(first).toMatchObject({ version: 2, marker: true, payloadType: 100, ssrc: 0x1234_5678 });
    expect(second.sequence).toBe((first.sequence + 1) & 0xffff);
    expect(second.timestamp).toBe((first.timestamp + 960) >>> 0);
  });

  it('sends each video frame as two packets sharing a timestamp, the marker on the last', () => {
    const writer = new RtpStreamWriter(1, video);
    const [a, b, c] = [0, 1, 2].map((slot) => readRtpHeader(Buffer.from(writer.next(slot, slot))));
    expect([a!.marker, b!.marker, c!.marker]).toEqual([false, true, false]);
    expect(b!.timestamp).toBe(a!.timestamp);
    expect(c!.timestamp).toBe((a!.timestamp + 3_600) >>> 0);
    expect(c!.sequence).toBe((a!.sequence + 2) & 0xffff);
  });

  it('marks a key frame start every 25 frames, as mediasoup parses VP8', () => {
    const writer = new RtpStreamWriter(2, video);
    const keyStarts: number[] = [];
    for (let packet = 0; packet < 2 * 2 * KEY_FRAME_EVERY; packet++) {
      if (vp8KeyFrameStart(writer.next(packet, packet))) keyStarts.push(packet);
    }
    expect(keyStarts).toEqual([0, 2 * KEY_FRAME_EVERY]);
  });

  it('keeps the VP8 descriptor extended with a two-byte PictureID that counts frames', () => {
    const writer = new RtpStreamWriter(3, video);
    writer.next(0, 0);
    writer.next(1, 0);
    const packet = writer.next(2, 0);
    expect(packet[12]).toBe(0x90);
    expect(packet[13]).toBe(0x80);
    expect(packet.readUInt16BE(14)).toBe(0x8001);
  });

  it('tells RTCP and foreign packets from probes', () => {
    const senderReport = Buffer.from([0x80, 200, 0, 6, ...new Array<number>(40).fill(0)]);
    expect(isRtcp(senderReport)).toBe(true);
    expect(readProbe(senderReport)).toBeUndefined();
    const packet = Buffer.from(new RtpStreamWriter(0, audio).next(0, 0));
    packet[packet.length - 20] = 0; // magic broken
    expect(readProbe(packet)).toBeUndefined();
  });

  it('refuses a payload too small for its probe', () => {
    expect(() => new RtpStreamWriter(0, { ...video, payloadBytes: 20 })).toThrow('at least');
  });
});
