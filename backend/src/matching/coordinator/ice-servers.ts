import { createHmac } from 'node:crypto';
import type { IceServer } from '@serendip/proto';

export interface IceConfig {
  stunUrls: string[];
  turnUrls: string[];
  turnSecret: string | undefined;
  turnCredentialTtlSeconds: number;
}

/**
 * The ICE servers one user gets for one call (DESIGN.md "Matching"). TURN uses coturn's shared-secret REST scheme
 * (`use-auth-secret`): the username is `<expiry>:<user id>` and the password is HMAC-SHA1 of it with the shared
 * secret, so credentials are short-lived and the secret never leaves the server. Without TURN: STUN, or host only.
 */
export function iceServersFor(userId: string, config: IceConfig, now: Date): IceServer[] {
  const servers: IceServer[] = [];
  if (config.stunUrls.length) servers.push({ urls: config.stunUrls });
  if (config.turnUrls.length && config.turnSecret) {
    const expiry = Math.floor(now.getTime() / 1000) + config.turnCredentialTtlSeconds;
    const username = `${expiry}:${userId}`;
    const credential = createHmac('sha1', config.turnSecret).update(username).digest('base64');
    servers.push({ urls: config.turnUrls, username, credential });
  }
  return servers;
}
