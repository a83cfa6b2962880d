import { createHash, hkdfSync } from 'node:crypto';
import { decodeProtectedHeader, jwtVerify, SignJWT } from 'jose';

/** spec 3: the accessToken cookie is short-lived; the refresh token renews it. */
export const ACCESS_TOKEN_TTL_SECONDS = 15 * 60;

export interface AccessClaims {
  userId: string;
  sessionId: string;
  /**
   * The session was started with the mailed sign-in code, not the password alone (spec 6 Admin: staff need it). Fixed
   * for the session's life: every token it gets says the same.
   */
  signedInWithCode: boolean;
}

/**
 * Signed access tokens (HS256 JWT via jose), with their own secret (JWT_SECRET): one that signs, and the ones before
 * it that still verify until their tokens expire (rotation). Each token names its key (`kid`), so a token is checked
 * against that key only.
 */
export class AccessTokens {
  private readonly keys: Map<string, Uint8Array>;
  private readonly signingKid: string;

  constructor(secrets: Buffer[]) {
    if (secrets.length === 0) throw new Error('AccessTokens needs at least one secret');
    this.keys = new Map(secrets.map((secret) => [keyId(secret), new Uint8Array(secret)]));
    this.signingKid = keyId(secrets[0]!);
  }

  /**
   * Development only (production requires JWT_SECRET): a secret derived from the key-encryption key, so a local run
   * keeps its sessions across restarts without one more file.
   */
  static forDevelopment(keyEncryptionKey: Buffer): AccessTokens {
    return new AccessTokens([
      Buffer.from(hkdfSync('sha256', keyEncryptionKey, Buffer.alloc(0), 'serendip access token (development) v2', 32)),
    ]);
  }

  sign(claims: AccessClaims, now: Date): Promise<string> {
    const issuedAt = Math.floor(now.getTime() / 1000);
    // `amr` (RFC 8176): how the session's user was authenticated; 'otp' for the mailed code.
    return new SignJWT({ sid: claims.sessionId, amr: claims.signedInWithCode ? ['pwd', 'otp'] : ['pwd'] })
      .setProtectedHeader({ alg: 'HS256', kid: this.signingKid })
      .setSubject(claims.userId)
      .setIssuedAt(issuedAt)
      .setExpirationTime(issuedAt + ACCESS_TOKEN_TTL_SECONDS)
      .sign(this.keys.get(this.signingKid)!);
  }

  /** The claims of a valid, unexpired token signed by one of our keys; undefined for anything else. */
  async verify(token: string): Promise<AccessClaims | undefined> {
    try {
      const { kid } = decodeProtectedHeader(token);
      const key = typeof kid === 'string' ? this.keys.get(kid) : undefined;
      if (!key) return undefined;
      const { payload } = await jwtVerify(token, key, { algorithms: ['HS256'] });
      if (typeof payload.sub !== 'string' || typeof payload.sid !== 'string') return undefined;
      const signedInWithCode = Array.isArray(payload.amr) && payload.amr.includes('otp');
      return { userId: payload.sub, sessionId: payload.sid, signedInWithCode };
    } catch {
      return undefined;
    }
  }
}

/** A key's name in the token header: a short digest, which says nothing about the key. */
function keyId(secret: Buffer): string {
  return createHash('sha256').update(secret).digest('base64url').slice(0, 12);
}
