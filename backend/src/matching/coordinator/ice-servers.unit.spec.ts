import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../config/config.js';
import { iceServersFor } from './ice-servers.js';

const now = new Date('2026-11-24T12:00:00Z');
const base = { stunUrls: [], turnUrls: [], turnSecret: undefined, turnCredentialTtlSeconds: 3600 };

describe('ICE servers handed out per call', () => {
  it('gives TURN credentials that coturn can check with its shared secret, expiring after the TTL', () => {
    const [turn] = iceServersFor('user-1', { ...base, turnUrls: ['turn:127.0.0.1:3478'], turnSecret: 's3cret' }, now);
    const expiry = now.getTime() / 1000 + 3600;
    expect(turn).toEqual({
      urls: ['turn:127.0.0.1:3478'],
      username: `${expiry}:user-1`,
      credential: createHmac('sha1', 's3cret').update(`${expiry}:user-1`).digest('base64'),
    });
  });

  it('by default, hands out TURN credentials that stop opening relays within minutes', () => {
    // A call sets up its relay in seconds and keeps it past the expiry (coturn checks credentials when it allocates);
    // credentials copied out of a browser or a log stop working soon after.
    const { ice } = loadConfig({ TURN_URLS: 'turn:turn.example.org:3478', TURN_SECRET: 's3cret' });
    const [turn] = iceServersFor('user-1', ice, now);
    const expiry = Number(turn!.username!.split(':')[0]);
    expect(expiry - now.getTime() / 1000).toBeLessThanOrEqual(10 * 60);
  });

  it('offers STUN alone, or nothing (host candidates), when TURN is not configured', () => {
    expect(iceServersFor('u', { ...base, stunUrls: ['stun:stun.example.org:3478'] }, now)).toEqual([
      { urls: ['stun:stun.example.org:3478'] },
    ]);
    expect(iceServersFor('u', { ...base, turnUrls: ['turn:127.0.0.1:3478'] }, now)).toEqual([]);
  });
});
