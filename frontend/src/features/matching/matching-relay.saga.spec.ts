import { MATCH_TIMING, MEDIA_TIMING } from '@serendip/proto';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { aMatch, untilSearching } from './matching-test-support';

vi.mock('../../shared/toasts/notify', () => ({ notify: { success: vi.fn(), error: vi.fn() } }));
const { notify } = await import('../../shared/toasts/notify');

const TRYING_ANOTHER = 'Connection Failed. Trying another match...';

/** A match found while searching, on the path the server chose. */
async function matched(match: Parameters<typeof aMatch>[0]) {
  const t = await untilSearching();
  t.socket.receive({ type: 'matchFound', payload: aMatch(match) });
  await vi.advanceTimersByTimeAsync(0);
  return t;
}

describe('calls relayed through the SFU', () => {
  beforeEach(() => {
    vi.useFakeTimers();
    vi.mocked(notify.error).mockClear();
  });
  afterEach(() => vi.useRealTimers());

  it('joins the relay for a relayed match, with no offer, and is connected once the relay is', async () => {
    const t = await matched({ media: 'relay' });
    expect(t.media.calls).toEqual(['start', 'joinRelay']);
    expect(t.socket.sentOf('media:join')).toEqual([{}]);
    expect(t.socket.sentOf('offer')).toEqual([]);
    expect(t.state()).toMatchObject({ status: 'connecting', partner: { firstName: 'Bob' } });

    t.socket.receive({ type: 'media:producer', payload: { from: 'bob', producerId: 'p-bob', kind: 'video' } });
    t.socket.receive({ type: 'media:producer', payload: { from: 'eve', producerId: 'p-eve', kind: 'video' } });
    t.media.raise({ type: 'connection-state', state: 'connected' });
    await vi.advanceTimersByTimeAsync(0);
    expect(t.media.calls).toContain('relayProducer:p-bob');
    expect(t.media.calls).not.toContain('relayProducer:p-eve');
    expect(t.socket.sentOf('rtc-connected')).toEqual([{ target: 'bob' }]);
    expect(t.state().status).toBe('connected');
    // Connected within the timeout: nothing moves on later.
    await vi.advanceTimersByTimeAsync(MATCH_TIMING.connectionTimeoutMs);
    expect(t.socket.sentOf('leaveVideoRoom')).toEqual([]);
  });

  it('treats a refused media:join as a failed connection and tries another match', async () => {
    const t = await untilSearching();
    t.socket.refusals['media:join'] = 'Relay is unavailable';
    vi.spyOn(console, 'error').mockImplementation(() => {});
    t.socket.receive({ type: 'matchFound', payload: aMatch({ media: 'relay' }) });
    await vi.advanceTimersByTimeAsync(0);
    expect(notify.error).toHaveBeenCalledWith(TRYING_ANOTHER);
    expect(t.socket.sentOf('leaveVideoRoom')).toEqual([{ next: true, failed: true }]);
    expect(t.media.calls).toContain('closePeer');
    expect(t.socket.sentOf('startMatching')).toHaveLength(2);
    expect(t.state().status).toBe('searching');
  });

  it('in auto mode asks once for the SFU when the peer is not up after 4 s, waits, then moves to it', async () => {
    const t = await matched({ relayFallback: true });
    expect(t.media.calls).toEqual(['start', 'openPeer', 'createOffer']);
    await vi.advanceTimersByTimeAsync(MEDIA_TIMING.p2pFallbackMs - 1);
    expect(t.socket.sentOf('media:fallback')).toEqual([]);
    await vi.advanceTimersByTimeAsync(1);
    expect(t.socket.sentOf('media:fallback')).toEqual([{ target: 'bob' }]);

    // The peer connection giving up now asks nothing more and skips nothing.
    t.media.raise({ type: 'connection-state', state: 'failed' });
    await vi.advanceTimersByTimeAsync(1_000);
    expect(t.socket.sentOf('media:fallback')).toHaveLength(1);
    expect(t.socket.sentOf('leaveVideoRoom')).toEqual([]);
    expect(notify.error).not.toHaveBeenCalled();

    t.socket.receive({ type: 'media:path', payload: { matchId: 'match-1', path: 'relay' } });
    await vi.advanceTimersByTimeAsync(0);
    expect(t.media.calls.slice(3)).toEqual(['closePeer', 'joinRelay']);
    expect(t.socket.sentOf('media:join')).toEqual([{}]);
    expect(t.state().status).toBe('connecting');

    // The connection timeout counts from the switch: a relay that does not come up either still moves on.
    await vi.advanceTimersByTimeAsync(MATCH_TIMING.connectionTimeoutMs - 1);
    expect(t.socket.sentOf('leaveVideoRoom')).toEqual([]);
    await vi.advanceTimersByTimeAsync(1);
    expect(notify.error).toHaveBeenCalledWith(TRYING_ANOTHER);
    expect(t.socket.sentOf('leaveVideoRoom')).toEqual([{ next: true, failed: true }]);
    expect(t.socket.sentOf('startMatching')).toHaveLength(2);
  });

  it('in auto mode asks for the SFU at once when the peer fails early, and connects through it', async () => {
    const t = await matched({ relayFallback: true });
    t.media.raise({ type: 'connection-state', state: 'failed' });
    await vi.advanceTimersByTimeAsync(0);
    expect(t.socket.sentOf('media:fallback')).toEqual([{ target: 'bob' }]);
    // No second ask when the 4 s are up.
    await vi.advanceTimersByTimeAsync(MEDIA_TIMING.p2pFallbackMs);
    expect(t.socket.sentOf('media:fallback')).toHaveLength(1);

    t.socket.receive({ type: 'media:path', payload: { matchId: 'other-match', path: 'relay' } });
    await vi.advanceTimersByTimeAsync(0);
    expect(t.media.calls).not.toContain('joinRelay');
    t.socket.receive({ type: 'media:path', payload: { matchId: 'match-1', path: 'relay' } });
    await vi.advanceTimersByTimeAsync(0);
    expect(t.media.calls.slice(-2)).toEqual(['closePeer', 'joinRelay']);
    t.media.raise({ type: 'connection-state', state: 'connected' });
    await vi.advanceTimersByTimeAsync(0);
    expect(t.socket.sentOf('rtc-connected')).toEqual([{ target: 'bob' }]);
    expect(t.state().status).toBe('connected');
  });

  it('still moves on at 10 s when the SFU never takes the call after the ask', async () => {
    const t = await matched({ relayFallback: true });
    await vi.advanceTimersByTimeAsync(MATCH_TIMING.connectionTimeoutMs - 1);
    expect(t.socket.sentOf('media:fallback')).toHaveLength(1);
    expect(t.socket.sentOf('leaveVideoRoom')).toEqual([]);
    await vi.advanceTimersByTimeAsync(1);
    expect(t.socket.sentOf('leaveVideoRoom')).toEqual([{ next: true, failed: true }]);
  });

  it('without relay fallback keeps the old path: no ask, a failed peer skips at once', async () => {
    const t = await matched({ relayFallback: false });
    vi.spyOn(console, 'error').mockImplementation(() => {});
    await vi.advanceTimersByTimeAsync(MEDIA_TIMING.p2pFallbackMs);
    expect(t.socket.sentOf('media:fallback')).toEqual([]);
    t.media.raise({ type: 'connection-state', state: 'failed' });
    await vi.advanceTimersByTimeAsync(0);
    expect(notify.error).toHaveBeenCalledWith(TRYING_ANOTHER);
    expect(t.socket.sentOf('leaveVideoRoom')).toEqual([{ next: true, failed: true }]);
    expect(t.socket.sentOf('media:fallback')).toEqual([]);
  });

  it('without relay fallback skips at 10 s as before', async () => {
    const t = await matched({ relayFallback: false });
    await vi.advanceTimersByTimeAsync(MATCH_TIMING.connectionTimeoutMs - 1);
    expect(t.socket.sentOf('leaveVideoRoom')).toEqual([]);
    await vi.advanceTimersByTimeAsync(1);
    expect(t.socket.sentOf('leaveVideoRoom')).toEqual([{ next: true, failed: true }]);
    expect(t.socket.sentOf('media:fallback')).toEqual([]);
    expect(t.media.calls).not.toContain('joinRelay');
  });

  it('after a socket blip keeps an open relay, and joins one only if the move to the SFU was missed', async () => {
    const t = await matched({ media: 'relay' });
    t.socket.receive({ type: 'matchResumed', payload: aMatch({ media: 'relay' }) });
    await vi.advanceTimersByTimeAsync(0);
    expect(t.media.calls.filter((c) => c === 'joinRelay')).toHaveLength(1);

    const p2p = await matched({ relayFallback: true });
    p2p.socket.receive({ type: 'matchResumed', payload: aMatch({ media: 'relay' }) });
    await vi.advanceTimersByTimeAsync(0);
    expect(p2p.media.calls).toEqual(['start', 'openPeer', 'createOffer', 'closePeer', 'joinRelay']);
  });

  it('joins again when the SFU lost the room, connecting until the new relay is up', async () => {
    const t = await matched({ media: 'relay' });
    t.media.raise({ type: 'connection-state', state: 'connected' });
    await vi.advanceTimersByTimeAsync(0);

    t.socket.receive({ type: 'media:reconnect', payload: { matchId: 'other-match' } });
    await vi.advanceTimersByTimeAsync(0);
    expect(t.media.calls.filter((c) => c === 'joinRelay')).toHaveLength(1);
    t.socket.receive({ type: 'media:reconnect', payload: { matchId: 'match-1' } });
    await vi.advanceTimersByTimeAsync(0);
    expect(t.media.calls.slice(-2)).toEqual(['closePeer', 'joinRelay']);
    expect(t.state().status).toBe('connecting');
    t.media.raise({ type: 'connection-state', state: 'connected' });
    await vi.advanceTimersByTimeAsync(0);
    expect(t.state().status).toBe('connected');
    expect(t.socket.sentOf('leaveVideoRoom')).toEqual([]);
  });

  it('a relay that fails moves on like a peer that fails', async () => {
    const t = await matched({ media: 'relay' });
    vi.spyOn(console, 'error').mockImplementation(() => {});
    t.media.raise({ type: 'connection-state', state: 'failed' });
    await vi.advanceTimersByTimeAsync(0);
    expect(t.socket.sentOf('leaveVideoRoom')).toEqual([{ next: true, failed: true }]);
    expect(t.socket.sentOf('media:fallback')).toEqual([]);
  });
});
