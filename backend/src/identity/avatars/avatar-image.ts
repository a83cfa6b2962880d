import { type PictureProblem, toPicture } from '../../platform/images/picture.js';

export const AVATAR_SIDE = 512;

export type AvatarImage = { ok: true; webp: Buffer } | { ok: false; problem: PictureProblem };

/** Any accepted picture becomes a 512x512 WebP, oriented and stripped of all metadata (platform/images/picture.ts). */
export async function toAvatarImage(bytes: Buffer): Promise<AvatarImage> {
  const picture = await toPicture(bytes, { square: AVATAR_SIDE, format: 'webp', quality: 82 });
  return picture.ok ? { ok: true, webp: picture.bytes } : picture;
}
