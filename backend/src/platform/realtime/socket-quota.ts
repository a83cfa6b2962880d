/** What a page hears when its user holds the quota already. */
export const TOO_MANY_PAGES = 'Serendip is open in too many tabs or windows. Close some, then try again.';

/** What SocketQuota needs of a Socket.IO socket: to hear it, or its connection, close. */
export interface QuotaSocket {
  once(event: 'disconnect', listener: () => void): unknown;
  conn: { readyState: string; once(event: 'close', listener: () => void): unknown };
}

/**
 * How many sockets of one user a gateway on this node holds at once. Each page holds one; past the quota it is a
 * script, and every socket costs memory: a flood of handshakes with one session would take the node's. A socket is
 * counted from the handshake that admits it until it, or its connection, closes (a socket the server drops before it
 * connects, its client gone during the handshake, never says it disconnected; its connection does).
 */
export class SocketQuota {
  private readonly open = new Map<string, number>();

  constructor(readonly perUser: number) {}

  /**
   * Counts the socket in, or answers false when its user holds the quota already. Check and count happen together:
   * call it after the handshake's last await, so handshakes that interleave cannot all pass.
   */
  admit(userId: string, socket: QuotaSocket): boolean {
    // Its connection closed during the handshake: Socket.IO drops it, and no event will ever count it out.
    if (socket.conn.readyState !== 'open') return true;
    const held = this.held(userId);
    if (held >= this.perUser) return false;
    this.open.set(userId, held + 1);
    let counted = true;
    const release = () => {
      if (!counted) return;
      counted = false;
      const left = this.held(userId) - 1;
      if (left > 0) this.open.set(userId, left);
      else this.open.delete(userId);
    };
    socket.once('disconnect', release);
    socket.conn.once('close', release);
    return true;
  }

  held(userId: string): number {
    return this.open.get(userId) ?? 0;
  }
}
