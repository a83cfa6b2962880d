import { describe, expect, it } from 'vitest';
import { healthAnswerSchema, isSocketError, pingRequestSchema, SOCKET_RECONNECTION } from './index.js';

describe('health answer contract', () => {
  it('accepts what the backend sends when up and when down', () => {
    expect(healthAnswerSchema.safeParse({ message: 'Serendip is up' }).success).toBe(true);
    expect(healthAnswerSchema.safeParse({ message: 'Serendip is down', reason: 'database unreachable' }).success).toBe(
      true,
    );
  });

  it('rejects an answer a client cannot show (no message, wrong types)', () => {
    expect(healthAnswerSchema.safeParse({}).success).toBe(false);
    expect(healthAnswerSchema.safeParse({ message: '' }).success).toBe(false);
    expect(healthAnswerSchema.safeParse({ message: 42 }).success).toBe(false);
    expect(healthAnswerSchema.safeParse('<html>proxy error</html>').success).toBe(false);
  });
});

describe('system socket contract', () => {
  it('takes a ping with a finite client time only', () => {
    expect(pingRequestSchema.safeParse({ sentAt: 1700000000000 }).success).toBe(true);
    expect(pingRequestSchema.safeParse({ sentAt: Infinity }).success).toBe(false);
    expect(pingRequestSchema.safeParse({ sentAt: '1' }).success).toBe(false);
    expect(pingRequestSchema.safeParse(null).success).toBe(false);
  });

  it('tells an error answer from a pong', () => {
    expect(isSocketError({ error: { reason: 'bad' } })).toBe(true);
    expect(isSocketError({ sentAt: 1, serverTime: 2 })).toBe(false);
  });

  it('keeps the spec 9 reconnection constants', () => {
    expect(SOCKET_RECONNECTION).toEqual({ reconnectionAttempts: 10, reconnectionDelay: 2000, timeout: 10000 });
  });
});
