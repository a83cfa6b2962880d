import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { createLogger, loggablePath, safeUrl } from './logger.js';

function capture() {
  const lines: string[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _enc, done) {
      lines.push(chunk.toString());
      done();
    },
  });
  return { logger: createLogger('info', sink), text: () => lines.join('') };
}

describe('logs', () => {
  it('blank secrets and personal data, even nested', () => {
    const { logger, text } = capture();
    logger.info(
      {
        password: 'hunter2',
        body: { emailAddress: 'ada@example.com', newPassword: 'n3w-secret' },
        req: { headers: { cookie: 'refreshToken=abc123' } },
        user: { profile: { phoneNumber: '+15551234567' } },
      },
      'signup',
    );
    const out = text();
    for (const secret of ['hunter2', 'ada@example.com', 'n3w-secret', 'abc123', '+15551234567'])
      expect(out).not.toContain(secret);
    expect(out).toContain('[redacted]');
    expect(JSON.parse(out)).toMatchObject({ level: 'info', msg: 'signup', service: 'backend' });
  });

  it('keep tokens and query strings out of request paths', () => {
    expect(loggablePath('/api/auth/verify?token=abc')).toBe('/api/auth/verify');
    expect(loggablePath('/reset-password/Zm9vYmFyYmF6cXV4cXV1eHF1dXhxdXV4')).toBe('/reset-password/:token');
    // A guest decides a path's length; a line keeps its first 512 characters.
    expect(loggablePath(`/api/${'a.'.repeat(5000)}`)).toHaveLength(513);
    // Ids stay: operators need them to follow a request.
    expect(loggablePath('/api/user/ban-info/6f1c1b5e-2d3a-4f7e-9a51-1f0c3f4f9a10')).toBe(
      '/api/user/ban-info/6f1c1b5e-2d3a-4f7e-9a51-1f0c3f4f9a10',
    );
  });

  it('never print a URL password', () => {
    expect(safeUrl('postgres://serendip:s3cret@db:5432/serendip')).toBe('postgres://db:5432/serendip');
  });
});
