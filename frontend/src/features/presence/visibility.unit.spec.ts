import { describe, expect, it } from 'vitest';
import { followVisibility, type VisibilitySocket } from './visibility';

class FakeDocument extends EventTarget {
  hidden = false;
  turn(hidden: boolean) {
    this.hidden = hidden;
    this.dispatchEvent(new Event('visibilitychange'));
  }
}

class FakeSocket implements VisibilitySocket {
  connected = false;
  said: string[] = [];
  private readonly listeners = new Set<() => void>();
  emit(event: 'away' | 'back') {
    this.said.push(event);
  }
  on(_event: 'connect', listener: () => void) {
    this.listeners.add(listener);
  }
  off(_event: 'connect', listener: () => void) {
    this.listeners.delete(listener);
  }
  connect() {
    this.connected = true;
    for (const listener of this.listeners) listener();
  }
}

describe('followVisibility (spec 4 "Presence": away when hidden, back when visible)', () => {
  it('says away when the page hides and back when it shows, only while connected, and away at a connection made while hidden', () => {
    const doc = new FakeDocument();
    const socket = new FakeSocket();
    const stop = followVisibility(socket, doc);

    // Not connected yet: nothing to tell.
    doc.turn(true);
    expect(socket.said).toEqual([]);
    // It connects while the page is hidden: the server, which starts it in sight, hears away at once.
    socket.connect();
    expect(socket.said).toEqual(['away']);
    doc.turn(false);
    doc.turn(true);
    doc.turn(false);
    expect(socket.said).toEqual(['away', 'back', 'away', 'back']);
    // A reconnection while visible says nothing (in sight is where a connection starts).
    socket.connect();
    expect(socket.said).toHaveLength(4);

    stop();
    doc.turn(true);
    socket.connect();
    expect(socket.said).toHaveLength(4);
  });
});
