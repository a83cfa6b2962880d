/**
 * A JPEG's pixel size, read from its start-of-frame marker; undefined if the bytes are not a JPEG we can read.
 * Enough to check a snapshot without a decoder.
 */
export function jpegSize(jpeg: Uint8Array): { width: number; height: number } | undefined {
  if (jpeg[0] !== 0xff || jpeg[1] !== 0xd8) return undefined;
  let offset = 2;
  while (offset + 4 <= jpeg.length) {
    if (jpeg[offset] !== 0xff) return undefined;
    const marker = jpeg[offset + 1]!;
    // Fill bytes, and markers that stand alone without a length (TEM, RSTn).
    if (marker === 0xff) {
      offset += 1;
      continue;
    }
    if (marker === 0x01 || (marker >= 0xd0 && marker <= 0xd7)) {
      offset += 2;
      continue;
    }
    const length = (jpeg[offset + 2]! << 8) | jpeg[offset + 3]!;
    // SOF0..SOF15, except DHT (C4), JPG (C8) and DAC (CC), which share the range.
    if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) {
      if (offset + 9 > jpeg.length) return undefined;
      const height = (jpeg[offset + 5]! << 8) | jpeg[offset + 6]!;
      const width = (jpeg[offset + 7]! << 8) | jpeg[offset + 8]!;
      return { width, height };
    }
    // Start of scan: entropy-coded data follows, and no frame header came before it.
    if (marker === 0xda || length < 2) return undefined;
    offset += 2 + length;
  }
  return undefined;
}
