import { describe, expect, it } from 'vitest';
import { connectionTrouble, type MediaRoute } from './media-path';
import { relayConnectionState } from './relay-call';

const route = (overrides: Partial<MediaRoute> = {}): MediaRoute => ({
  path: 'p2p',
  relayFallback: true,
  fallbackAsked: false,
  ...overrides,
});

describe('what a connection in trouble leads to (spec 4, DESIGN.md "Matching")', () => {
  it('given auto mode, when the peer is not up yet, then asks for the SFU once, then waits', () => {
    expect(connectionTrouble(route(), false)).toBe('ask-relay');
    expect(connectionTrouble(route({ fallbackAsked: true }), false)).toBe('keep-waiting');
  });

  it('given no fallback, a relayed call or a call that was up, then tries another match', () => {
    expect(connectionTrouble(route({ relayFallback: false }), false)).toBe('try-another');
    expect(connectionTrouble(route({ path: 'relay', relayFallback: false, fallbackAsked: true }), false)).toBe(
      'try-another',
    );
    expect(connectionTrouble(route(), true)).toBe('try-another');
  });
});

describe('the relay transports as one connection state', () => {
  it.each([
    ['new', 'new', 'new'],
    ['connecting', 'new', 'connecting'],
    ['connected', 'new', 'connecting'],
    ['connected', 'connecting', 'connecting'],
    ['connected', 'connected', 'connected'],
    ['connected', 'disconnected', 'disconnected'],
    ['disconnected', 'failed', 'failed'],
    ['connected', 'failed', 'failed'],
  ] as const)('send %s and receive %s are %s', (send, recv, expected) => {
    expect(relayConnectionState(send, recv)).toBe(expected);
  });
});
