import { fileTypeFromBuffer } from 'file-type';
import sharp from 'sharp';

/** Pictures people may upload, by their real bytes; the declared name and type are never trusted. */
const ACCEPTED = new Map([
  ['image/jpeg', 'jpeg'],
  ['image/png', 'png'],
  ['image/webp', 'webp'],
]);

/**
 * A decompression bomb (a small file that decodes to gigapixels) is refused before it is decoded; 24 MP is more than
 * any phone's camera.
 */
export const MAX_INPUT_PIXELS = 24_000_000;

// One picture decoded at a time per upload, on a shared small pool: a burst of uploads must not take every core.
sharp.concurrency(1);

export type PictureProblem = 'unsupported-type' | 'too-many-pixels' | 'unreadable';
export type Picture = { ok: true; bytes: Buffer } | { ok: false; problem: PictureProblem };

export interface PictureShape {
  /** A square of this side, cropped to fill (avatars); else `maxSide`, never enlarged. */
  square?: number;
  maxSide?: number;
  format: 'webp' | 'jpeg';
  quality: number;
}

/**
 * Any accepted picture, re-encoded: oriented by its EXIF and then stripped of all metadata (EXIF with GPS, ICC, XMP):
 * sharp keeps none unless asked to, and we never ask. What the bytes claim to be must be what libvips reads them as,
 * or it is a polyglot and refused.
 */
export async function toPicture(bytes: Buffer, shape: PictureShape): Promise<Picture> {
  const sniffed = await fileTypeFromBuffer(bytes);
  const format = sniffed && ACCEPTED.get(sniffed.mime);
  if (!format) return { ok: false, problem: 'unsupported-type' };
  const options = { limitInputPixels: MAX_INPUT_PIXELS, failOn: 'error' } as const;
  try {
    const header = await sharp(bytes, options).metadata();
    if (header.format !== format) return { ok: false, problem: 'unsupported-type' };
    if (header.width * header.height > MAX_INPUT_PIXELS) return { ok: false, problem: 'too-many-pixels' };
    let image = sharp(bytes, options).rotate();
    image = shape.square
      ? image.resize(shape.square, shape.square, { fit: 'cover' })
      : image.resize(shape.maxSide, shape.maxSide, { fit: 'inside', withoutEnlargement: true });
    const out =
      shape.format === 'webp' ? image.webp({ quality: shape.quality }) : image.jpeg({ quality: shape.quality });
    return { ok: true, bytes: await out.toBuffer() };
  } catch (error) {
    const tooBig = error instanceof Error && /pixel limit/i.test(error.message);
    return { ok: false, problem: tooBig ? 'too-many-pixels' : 'unreadable' };
  }
}
