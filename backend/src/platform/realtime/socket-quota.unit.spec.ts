import { EventEmitter } from 'node:events';
import { describe, expect, it } from 'vitest';
import { SocketQuota } from './socket-quota.js';

/** A socket as the quota sees it: it, and its connection, can close. */
function socket(readyState = 'open') {
  return Object.assign(new EventEmitter(), { conn: Object.assign(new EventEmitter(), { readyState }) });
}

describe('SocketQuota', () => {
  it("admits a user's sockets up to the quota, then none until one closes; others are not held back", () => {
    const quota = new SocketQuota(2);
    const [a, b, c] = [socket(), socket(), socket()];
    expect(quota.admit('ada', a)).toBe(true);
    expect(quota.admit('ada', b)).toBe(true);
    expect(quota.admit('ada', c)).toBe(false);
    expect(quota.admit('bob', socket())).toBe(true);
    a.emit('disconnect');
    expect(quota.admit('ada', c)).toBe(true);
    expect(quota.held('ada')).toBe(2);
  });

  it('counts a socket out once, whether it or its connection closes first, or both', () => {
    const quota = new SocketQuota(3);
    const [a, b] = [socket(), socket()];
    quota.admit('ada', a);
    quota.admit('ada', b);
    // Dropped before it connected: only its connection says so.
    a.conn.emit('close');
    expect(quota.held('ada')).toBe(1);
    b.emit('disconnect');
    b.conn.emit('close');
    a.emit('disconnect');
    expect(quota.held('ada')).toBe(0);
    expect(quota.admit('ada', socket())).toBe(true);
    expect(quota.held('ada')).toBe(1);
  });

  it('does not count a socket whose connection closed during its handshake (Socket.IO drops it without a word)', () => {
    const quota = new SocketQuota(1);
    expect(quota.admit('ada', socket('closed'))).toBe(true);
    expect(quota.held('ada')).toBe(0);
    expect(quota.admit('ada', socket())).toBe(true);
  });
});
