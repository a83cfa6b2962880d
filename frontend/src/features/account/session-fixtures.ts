import type { LoginSession } from '@serendip/proto';

/** Test-only: sessions as GET /sessions answers them. */
export function aSession(overrides: Partial<LoginSession> = {}): LoginSession {
  return {
    _id: 'session-1',
    createdAt: '2025-03-11T14:05:00.000Z',
    userAgent: 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/156.0.0.0 Safari/537.36',
    city: 'London',
    country: 'GB',
    ip: '203.0.113.5',
    isCurrent: true,
    ...overrides,
  };
}

export const IPHONE_AGENT =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1';
export const IPAD_AGENT =
  'Mozilla/5.0 (iPad; CPU OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1';
