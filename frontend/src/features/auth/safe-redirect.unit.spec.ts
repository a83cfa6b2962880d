import { describe, expect, it } from 'vitest';
import { loginPathFor, safeRedirectTarget } from './safe-redirect';

describe('safeRedirectTarget (no open redirect)', () => {
  it.each([
    ['/video-match', '/video-match'],
    ['/video-match?from=home#top', '/video-match?from=home#top'],
    ['/', '/'],
    ['/%2F%2Fevil.example', '/%2F%2Fevil.example'],
  ])('keeps the same-site path %s', (raw, expected) => {
    expect(safeRedirectTarget(raw)).toBe(expected);
  });

  it.each([
    null,
    '',
    'video-match',
    '//evil.example',
    '//evil.example/path',
    '/\\evil.example',
    '\\\\evil.example',
    '/\t/evil.example',
    '/\n/evil.example',
    'https://evil.example',
    'http:/evil.example',
    'javascript:alert(1)',
    ' /video-match',
  ])('falls back to / for %j', (raw) => {
    expect(safeRedirectTarget(raw)).toBe('/');
  });
});

describe('loginPathFor', () => {
  it('encodes the path and the query as one parameter', () => {
    expect(loginPathFor({ pathname: '/video-match', search: '?a=1&b=2' })).toBe(
      '/auth/login?redirect=%2Fvideo-match%3Fa%3D1%26b%3D2',
    );
  });
});
