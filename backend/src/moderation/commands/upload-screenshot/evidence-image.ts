import { fileTypeFromBuffer } from 'file-type';
import sharp from 'sharp';

const ACCEPTED = new Map([
  ['image/jpeg', 'jpeg'],
  ['image/png', 'png'],
  ['image/webp', 'webp'],
]);
/** Larger than any screen a call is shown on; a decompression bomb is refused before it is decoded. */
const MAX_INPUT_PIXELS = 24_000_000;
const MAX_SIDE = 1920;

export type EvidenceImage = { ok: true; jpeg: Buffer } | { ok: false; problem: string };

/**
 * A reporter's screenshot, taken as avatars are (the bytes say what it is, never the declared type): re-encoded as a
 * JPEG no larger than 1920 px, oriented, and stripped of every metadata block (sharp keeps none unless asked).
 */
export async function toEvidenceImage(bytes: Buffer): Promise<EvidenceImage> {
  const sniffed = await fileTypeFromBuffer(bytes);
  const format = sniffed && ACCEPTED.get(sniffed.mime);
  if (!format) return { ok: false, problem: 'must be a JPEG, PNG or WebP picture' };
  const options = { limitInputPixels: MAX_INPUT_PIXELS, failOn: 'error' } as const;
  try {
    const header = await sharp(bytes, options).metadata();
    // libvips picks its loader itself: it must agree with the sniffed type, or this is a polyglot.
    if (header.format !== format) return { ok: false, problem: 'must be a JPEG, PNG or WebP picture' };
    const jpeg = await sharp(bytes, options)
      .rotate()
      .resize(MAX_SIDE, MAX_SIDE, { fit: 'inside', withoutEnlargement: true })
      .jpeg({ quality: 85 })
      .toBuffer();
    return { ok: true, jpeg };
  } catch (error) {
    const tooBig = error instanceof Error && /pixel limit/i.test(error.message);
    return { ok: false, problem: tooBig ? 'has too many pixels' : 'could not be read as a picture' };
  }
}
