import { type PictureProblem, toPicture } from '../../../platform/images/picture.js';

/** Larger than any screen a call is shown on. */
const MAX_SIDE = 1920;

export type EvidenceImage = { ok: true; jpeg: Buffer } | { ok: false; problem: string };

const PROBLEMS: Record<PictureProblem, string> = {
  'unsupported-type': 'must be a JPEG, PNG or WebP picture',
  'too-many-pixels': 'has too many pixels',
  unreadable: 'could not be read as a picture',
};

/**
 * A reporter's screenshot, taken as avatars are (the bytes say what it is, never the declared type): re-encoded as a
 * JPEG no larger than 1920 px, oriented, and stripped of every metadata block.
 */
export async function toEvidenceImage(bytes: Buffer): Promise<EvidenceImage> {
  const picture = await toPicture(bytes, { maxSide: MAX_SIDE, format: 'jpeg', quality: 85 });
  return picture.ok ? { ok: true, jpeg: picture.bytes } : { ok: false, problem: PROBLEMS[picture.problem] };
}
