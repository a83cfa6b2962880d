import { hkdfSync } from 'node:crypto';
import { jwtVerify, SignJWT } from 'jose';

/** spec 3: the accessToken cookie is short-lived; the refresh token renews it. */
export const ACCESS_TOKEN_TTL_SECONDS = 15 * 60;

export interface AccessClaims {
  userId: string;
  sessionId: string;
}

/**
 * Signed access tokens (HS256 JWT via jose). The signing key is derived from the key-encryption key, so there
 * is one secret to manage, and rotating it signs everyone out, as it should.
 */
export class AccessTokens {
  private readonly key: Uint8Array;

  constructor(keyEncryptionKey: Buffer) {
    this.key = new Uint8Array(hkdfSync('sha256', keyEncryptionKey, Buffer.alloc(0), 'serendip access token v1', 32));
  }

  sign(claims: AccessClaims, now: Date): Promise<string> {
    const issuedAt = Math.floor(now.getTime() / 1000);
    return new SignJWT({ sid: claims.sessionId })
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject(claims.userId)
      .setIssuedAt(issuedAt)
      .setExpirationTime(issuedAt + ACCESS_TOKEN_TTL_SECONDS)
      .sign(this.key);
  }

  /** The claims of a valid, unexpired token; undefined for anything else. */
  async verify(token: string): Promise<AccessClaims | undefined> {
    try {
      const { payload } = await jwtVerify(token, this.key, { algorithms: ['HS256'] });
      if (typeof payload.sub !== 'string' || typeof payload.sid !== 'string') return undefined;
      return { userId: payload.sub, sessionId: payload.sid };
    } catch {
      return undefined;
    }
  }
}
