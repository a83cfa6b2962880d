import { fileTypeFromBuffer } from 'file-type';
import sharp from 'sharp';

/** Pictures people may upload, by their real bytes; the declared name and type are never trusted. */
const ACCEPTED = new Map([
  ['image/jpeg', 'jpeg'],
  ['image/png', 'png'],
  ['image/webp', 'webp'],
]);

export const AVATAR_SIDE = 512;
/**
 * A decompression bomb (a small file that decodes to gigapixels) is refused before it is decoded; 24 MP is more than
 * any phone's camera, and a 512 px avatar needs far less.
 */
export const MAX_INPUT_PIXELS = 24_000_000;

// One picture decoded at a time per upload, on a shared small pool: an avatar is tiny work, a burst must not be.
sharp.concurrency(1);

export type AvatarImage =
  { ok: true; webp: Buffer } | { ok: false; problem: 'unsupported-type' | 'too-many-pixels' | 'unreadable' };

/**
 * Any accepted picture becomes a 512x512 WebP, oriented by its EXIF and then stripped of all metadata (EXIF with
 * GPS, ICC, XMP): sharp keeps none unless asked to, and we never ask.
 */
export async function toAvatarImage(bytes: Buffer): Promise<AvatarImage> {
  const sniffed = await fileTypeFromBuffer(bytes);
  const format = sniffed && ACCEPTED.get(sniffed.mime);
  if (!format) return { ok: false, problem: 'unsupported-type' };
  const options = { limitInputPixels: MAX_INPUT_PIXELS, failOn: 'error' } as const;
  try {
    const header = await sharp(bytes, options).metadata();
    // libvips guesses the loader itself: it must agree with the sniffed type, or this is a polyglot.
    if (header.format !== format) return { ok: false, problem: 'unsupported-type' };
    if (header.width * header.height > MAX_INPUT_PIXELS) return { ok: false, problem: 'too-many-pixels' };
    const webp = await sharp(bytes, options)
      .rotate()
      .resize(AVATAR_SIDE, AVATAR_SIDE, { fit: 'cover' })
      .webp({ quality: 82 })
      .toBuffer();
    return { ok: true, webp };
  } catch (error) {
    const tooBig = error instanceof Error && /pixel limit/i.test(error.message);
    return { ok: false, problem: tooBig ? 'too-many-pixels' : 'unreadable' };
  }
}
