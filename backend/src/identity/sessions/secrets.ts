import { createHash, randomBytes, randomInt } from 'node:crypto';

/** An opaque secret for a cookie or a link: 256 bits, URL-safe. */
export const newSecret = () => randomBytes(32).toString('base64url');

/** A 6-digit sign-in code, uniformly drawn. */
export const newCode = () => String(randomInt(0, 1_000_000)).padStart(6, '0');

/** Only hashes are stored: a copy of the tables signs no one in. */
export const hashSecret = (secret: string) => createHash('sha256').update(secret).digest('hex');
