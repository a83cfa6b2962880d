import { act, fireEvent, render, screen } from '@testing-library/react';
import { Provider } from 'react-redux';
import { MemoryRouter } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { aMatch, untilSearching } from './matching-test-support';
import { MatchingView } from './MatchingView';
import { MediaSessionContext } from './media-context';
import { DOUBLE_ESCAPE_MS } from './use-double-escape';
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
  // Pressed where the focus is, as a keyboard does: it reaches the window on its way down and up.
  const escape = async () => {
    fireEvent.keyDown(document.activeElement ?? document.body, { key: 'Escape' });
    await later(0);
  };
  const skipped = () => t.socket.sentOf('leaveVideoRoom').length > 0;
  return { ...t, later, escape, skipped };
}

describe('Esc Esc skips the call, as on Omegle', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('skips on two presses within a second', async () => {
    const t = await inCallWithBob();
    await t.escape();
    expect(t.skipped()).toBe(false);
    await t.later(DOUBLE_ESCAPE_MS - 200);
    await t.escape();
    expect(t.skipped()).toBe(true);
    expect(t.state().status).toBe('searching');
  });

  it('does not skip on two presses 1.5 s apart, nor on a held key', async () => {
    const t = await inCallWithBob();
    await t.escape();
    await t.later(1_500);
    await t.escape();
    expect(t.skipped()).toBe(false);
    await t.later(1_500);
    fireEvent.keyDown(document.body, { key: 'Escape' });
    fireEvent.keyDown(document.body, { key: 'Escape', repeat: true });
    await t.later(0);
    expect(t.skipped()).toBe(false);
    expect(t.state().status).toBe('connected');
  });

  it('leaves Escape to the Report dialog while it is open: it closes the dialog, the call goes on', async () => {
    const t = await inCallWithBob();
    fireEvent.click(screen.getByRole('button', { name: 'Report' }));
    await t.later(0);
    expect(screen.getByRole('dialog', { name: 'Report User' })).toBeDefined();
    await t.escape();
    await t.escape();
    expect(t.skipped()).toBe(false);
    expect(t.state().status).toBe('connected');
  });
});
