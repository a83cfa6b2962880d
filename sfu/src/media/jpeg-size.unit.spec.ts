import { describe, expect, it } from 'vitest';
import { jpegSize } from './jpeg-size.js';

/** A JPEG's header up to its frame marker: SOI, an APP0 segment, a DHT segment, then SOFn. */
function jpegHeader(sof: number, width: number, height: number): Uint8Array {
  const app0 = [0xff, 0xe0, 0x00, 0x06, 0x4a, 0x46, 0x49, 0x46];
  const dht = [0xff, 0xc4, 0x00, 0x03, 0x00];
  const frame = [0xff, sof, 0x00, 0x0b, 0x08, height >> 8, height & 0xff, width >> 8, width & 0xff, 0x01, 0x01];
  return Uint8Array.from([0xff, 0xd8, ...app0, ...dht, ...frame, 0x11, 0x00]);
}

describe('jpegSize', () => {
  it('reads width and height from a baseline or progressive frame marker, past other segments', () => {
    expect(jpegSize(jpegHeader(0xc0, 640, 480))).toEqual({ width: 640, height: 480 });
    expect(jpegSize(jpegHeader(0xc2, 1920, 1080))).toEqual({ width: 1920, height: 1080 });
  });

  it('answers undefined for bytes that are not a JPEG or end before the frame marker', () => {
    expect(jpegSize(Uint8Array.from([0x89, 0x50, 0x4e, 0x47]))).toBeUndefined();
    expect(jpegSize(jpegHeader(0xc0, 640, 480).slice(0, 18))).toBeUndefined();
    expect(jpegSize(Uint8Array.from([0xff, 0xd8, 0xff, 0xda, 0x00, 0x02]))).toBeUndefined();
  });
});
