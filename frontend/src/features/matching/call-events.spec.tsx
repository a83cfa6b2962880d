import { act, fireEvent, render, screen } from '@testing-library/react';
import type { PartnerLeftReason } from '@serendip/proto';
import { Provider } from 'react-redux';
import { MemoryRouter } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { CALL_NOTICE_MS } from './matching.saga';
import { matchingActions as a } from './matching.slice';
import { aMatch, untilSearching } from './matching-test-support';
import { MatchingView } from './MatchingView';
import { MediaSessionContext } from './media-context';
import '../../ui/test-polyfills';

/** The matching screen on the real store and saga, over a fake socket and camera, in a call with Bob. */
async function inCallWithBob() {
  const t = await untilSearching();
  render(
    <Provider store={t.store}>
      <MediaSessionContext.Provider value={t.media}>
        <MemoryRouter>
          <MatchingView />
        </MemoryRouter>
      </MediaSessionContext.Provider>
    </Provider>,
  );
  await act(async () => {
    t.socket.receive({ type: 'matchFound', payload: aMatch() });
    await vi.advanceTimersByTimeAsync(0);
    t.media.raise({ type: 'connection-state', state: 'connected' });
    await vi.advanceTimersByTimeAsync(0);
  });
  const later = (ms: number) => act(() => vi.advanceTimersByTimeAsync(ms));
  return { ...t, later };
}

const partnerGone = (t: Awaited<ReturnType<typeof inCallWithBob>>, reason: PartnerLeftReason) =>
  act(async () => {
    t.socket.receive({ type: 'partnerDisconnected', payload: { matchId: 'match-1', reason } });
    await vi.advanceTimersByTimeAsync(0);
  });

describe('the call says what happened', () => {
  beforeEach(() => {
    vi.useFakeTimers();
    vi.setSystemTime(new Date(2026, 10, 24, 9, 5));
  });
  afterEach(() => vi.useRealTimers());

  it('says the partner skipped for a moment, searches at once, then asks about the call', async () => {
    const t = await inCallWithBob();
    expect(screen.getByRole('status', { name: '' }).textContent).toBe('Connected');
    await partnerGone(t, 'skip');

    expect(screen.getByText('Your partner skipped')).toBeDefined();
    expect(t.socket.sentOf('startMatching')).toHaveLength(2);
    expect(screen.queryByRole('heading', { name: 'How was your call with Bob?' })).toBeNull();

    await t.later(CALL_NOTICE_MS);
    expect(screen.queryByText('Your partner skipped')).toBeNull();
    expect(screen.getByRole('heading', { name: 'How was your call with Bob?' })).toBeDefined();
  });

  it.each([
    ['leave', 'Your partner left'],
    // A ban is not the partner's to know: they only hear that the other left.
    ['ban', 'Your partner left'],
    ['disconnect', 'Connection lost - finding someone new...'],
  ] as const)('after a %s says "%s"', async (reason, text) => {
    const t = await inCallWithBob();
    await partnerGone(t, reason);
    expect(screen.getByText(text)).toBeDefined();
    expect(t.state().status).toBe('searching');
  });

  it('shows Reconnecting... while the partner is away, waits through a dropped peer, and goes on when they are back', async () => {
    const t = await inCallWithBob();
    await act(async () => {
      t.socket.receive({ type: 'partnerReconnecting', payload: { matchId: 'match-1' } });
      await vi.advanceTimersByTimeAsync(0);
    });
    expect(screen.getByText('Reconnecting...')).toBeDefined();
    expect(screen.queryByText('Connected')).toBeNull();

    // Their media went with their socket: the call waits for the server, it is not skipped.
    await act(async () => {
      t.media.raise({ type: 'connection-state', state: 'disconnected' });
      await vi.advanceTimersByTimeAsync(0);
    });
    expect(t.socket.sentOf('leaveVideoRoom')).toEqual([]);

    await act(async () => {
      t.socket.receive({ type: 'partnerReconnected', payload: { matchId: 'match-1' } });
      await vi.advanceTimersByTimeAsync(0);
    });
    expect(screen.queryByText('Reconnecting...')).toBeNull();
    expect(screen.getByText('Connected')).toBeDefined();
  });
});

describe('the chat in a call', () => {
  beforeEach(() => {
    // jsdom lays nothing out; the panel scrolls its last line into view.
    Element.prototype.scrollIntoView ??= () => undefined;
    vi.useFakeTimers();
    vi.setSystemTime(new Date(2026, 10, 24, 9, 5));
  });
  afterEach(() => vi.useRealTimers());

  async function chatOpen() {
    const t = await inCallWithBob();
    await act(async () => {
      t.store.dispatch(a.chatToggled());
      await vi.advanceTimersByTimeAsync(0);
    });
    return t;
  }

  it("shows each line's time: ours when sent, the partner's when it arrived", async () => {
    const t = await chatOpen();
    const input = screen.getByRole('textbox', { name: 'Message Bob' });
    fireEvent.change(input, { target: { value: 'Hi Bob' } });
    fireEvent.keyDown(input, { key: 'Enter' });
    await t.later(0);
    await t.later(7 * 60_000);
    await act(async () => {
      t.socket.receive({
        type: 'chatMessage',
        // The sender's clock is not trusted: the line shows when it reached us.
        payload: { from: 'bob', message: 'Hello!', sentAt: '2001-01-01T23:59:00Z' },
      });
      await vi.advanceTimersByTimeAsync(0);
    });
    expect(screen.getByText('Hi Bob').closest('li')?.querySelector('time')?.textContent).toBe('09:05');
    expect(screen.getByText('Hello!').closest('li')?.querySelector('time')?.textContent).toBe('09:12');
  });

  it('tells the partner we type at most every 2 s, and shows "Bob is typing..." for 3 s after his last', async () => {
    const t = await chatOpen();
    const input = screen.getByRole('textbox', { name: 'Message Bob' });
    for (const text of ['H', 'He', 'Hel']) fireEvent.change(input, { target: { value: text } });
    await t.later(1_000);
    fireEvent.change(input, { target: { value: 'Hell' } });
    await t.later(1_000);
    fireEvent.change(input, { target: { value: 'Hello' } });
    await t.later(0);
    expect(t.socket.sentOf('typing')).toEqual([{ target: 'bob' }, { target: 'bob' }]);

    const typing = async () => {
      t.socket.receive({ type: 'typing', payload: { from: 'bob' } });
      await vi.advanceTimersByTimeAsync(0);
    };
    await act(typing);
    expect(screen.getByText('Bob is typing...')).toBeDefined();
    await t.later(2_000);
    await act(typing);
    await t.later(2_500);
    expect(screen.getByText('Bob is typing...')).toBeDefined();
    await t.later(500);
    expect(screen.queryByText('Bob is typing...')).toBeNull();

    // Someone who is not the partner does not type here.
    await act(async () => {
      t.socket.receive({ type: 'typing', payload: { from: 'eve' } });
      await vi.advanceTimersByTimeAsync(0);
    });
    expect(screen.queryByText(/is typing/)).toBeNull();
  });

  it('keeps the chat with a line saying the partner left until the next match', async () => {
    const t = await chatOpen();
    await act(async () => {
      t.socket.receive({ type: 'chatMessage', payload: { from: 'bob', message: 'Bye!', sentAt: '' } });
      await vi.advanceTimersByTimeAsync(0);
    });
    await partnerGone(t, 'leave');
    await t.later(CALL_NOTICE_MS);
    expect(screen.getByText('Bye!')).toBeDefined();
    expect(screen.getByText('Bob left the chat.')).toBeDefined();
    expect((screen.getByRole('textbox', { name: 'Message Bob' }) as HTMLTextAreaElement).disabled).toBe(true);

    await act(async () => {
      t.socket.receive({
        type: 'matchFound',
        payload: aMatch({
          matchId: 'match-2',
          partnerId: 'cleo',
          partnerUser: { ...aMatch().partnerUser, _id: 'cleo', firstName: 'Cleo' },
        }),
      });
      await vi.advanceTimersByTimeAsync(0);
    });
    expect(screen.queryByText('Bob left the chat.')).toBeNull();
    expect(screen.getByRole('heading', { name: 'Message Cleo' })).toBeDefined();
  });

  it('closes the chat of a call we skip ourselves: there is nobody left to read it with', async () => {
    const t = await chatOpen();
    await act(async () => {
      t.socket.receive({ type: 'chatMessage', payload: { from: 'bob', message: 'Bye!', sentAt: '' } });
      await vi.advanceTimersByTimeAsync(0);
    });
    await act(async () => {
      t.store.dispatch(a.skipRequested());
      await vi.advanceTimersByTimeAsync(0);
    });
    expect(screen.queryByText('Bye!')).toBeNull();
    expect(screen.queryByRole('heading', { name: 'Message Bob' })).toBeNull();
    expect(screen.queryByText('Your partner skipped')).toBeNull();
  });
});
