import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { aMatch, setUpMatching, untilSearching } from './matching-test-support';
import { signedOut } from '../auth/session.slice';
import { matchingActions as a } from './matching.slice';

vi.mock('../../shared/toasts/notify', () => ({ notify: { success: vi.fn(), error: vi.fn() } }));
const { notify } = await import('../../shared/toasts/notify');

async function connected() {
  const t = await untilSearching();
  t.socket.receive({ type: 'matchFound', payload: aMatch() });
  await vi.advanceTimersByTimeAsync(0);
  t.media.raise({ type: 'connection-state', state: 'connected' });
  await vi.advanceTimersByTimeAsync(0);
  return t;
}

describe('the match flow (spec 4)', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('asks for the camera, then sends startMatching 500 ms later with the filters', async () => {
    const { socket, state, media } = await untilSearching();
    expect(media.calls[0]).toBe('start');
    expect(state()).toMatchObject({ view: 'call', permission: 'granted', status: 'searching' });
    expect(socket.sentOf('startMatching')).toEqual([
      { filters: { gender: 'male', country: null, ageRange: [25, 40] }, deviceType: 'desktop' },
    ]);
  });

  it('shows the denied state when the camera is refused, and sends nothing', async () => {
    const t = await setUpMatching();
    t.media.permission = 'denied';
    t.store.dispatch(a.matchingStarted());
    await vi.advanceTimersByTimeAsync(1_000);
    expect(t.state().permission).toBe('denied');
    expect(t.socket.sent).toEqual([]);
    t.store.dispatch(a.leaveRequested());
    await vi.advanceTimersByTimeAsync(0);
    expect(t.state().view).toBe('ready');
  });

  it('as the offerer builds the peer and sends the offer; connected once the peer connects', async () => {
    const t = await untilSearching();
    t.socket.receive({ type: 'matchFound', payload: aMatch() });
    await vi.advanceTimersByTimeAsync(0);
    expect(t.media.calls).toEqual(['start', 'openPeer', 'createOffer']);
    expect(t.socket.sentOf('offer')).toEqual([{ target: 'bob', description: { type: 'offer', sdp: 'v=0 offer' } }]);
    expect(t.state()).toMatchObject({ status: 'connecting', partner: { firstName: 'Bob' } });
    expect(t.socket.currentMatch).toBe('match-1');

    t.media.raise({ type: 'ice-candidate', candidate: { candidate: 'candidate:1', sdpMid: '0', sdpMLineIndex: 0 } });
    t.media.raise({ type: 'connection-state', state: 'connected' });
    await vi.advanceTimersByTimeAsync(0);
    expect(t.socket.sentOf('ice-candidate')).toEqual([
      { target: 'bob', candidate: { candidate: 'candidate:1', sdpMid: '0', sdpMLineIndex: 0 } },
    ]);
    expect(t.socket.sentOf('rtc-connected')).toEqual([{ target: 'bob' }]);
    expect(t.state().status).toBe('connected');
  });

  it('as the answerer answers the offer, and takes ICE only from the partner', async () => {
    const t = await untilSearching();
    t.socket.receive({ type: 'matchFound', payload: aMatch({ role: 'answerer' }) });
    t.socket.receive({ type: 'offer', payload: { from: 'bob', description: { type: 'offer', sdp: 'x' } } });
    t.socket.receive({ type: 'ice-candidate', payload: { from: 'bob', candidate: { candidate: 'c1' } } });
    t.socket.receive({ type: 'ice-candidate', payload: { from: 'eve', candidate: { candidate: 'c2' } } });
    await vi.advanceTimersByTimeAsync(0);
    expect(t.media.calls).toEqual(['start', 'openPeer', 'acceptOffer', 'addRemoteCandidate']);
    expect(t.socket.sentOf('answer')).toEqual([{ target: 'bob', description: { type: 'answer', sdp: 'v=0 answer' } }]);
  });

  it('skips with a message when the peer has not connected within 10 s', async () => {
    const t = await untilSearching();
    t.socket.receive({ type: 'matchFound', payload: aMatch() });
    await vi.advanceTimersByTimeAsync(9_999);
    expect(t.socket.sentOf('leaveVideoRoom')).toEqual([]);
    await vi.advanceTimersByTimeAsync(1);
    expect(notify.error).toHaveBeenCalledWith('Connection Failed. Trying another match...');
    // A failed connection is no skip: the server must not keep the two apart for it.
    expect(t.socket.sentOf('leaveVideoRoom')).toEqual([{ next: true, failed: true }]);
    expect(t.socket.sentOf('startMatching')).toHaveLength(2);
    expect(t.state().status).toBe('searching');
  });

  it('declines a match that arrives after Stop, so the partner moves on, and stays idle', async () => {
    const t = await untilSearching();
    t.store.dispatch(a.stopRequested());
    await vi.advanceTimersByTimeAsync(0);
    expect(t.state().status).toBe('idle');
    t.socket.receive({ type: 'matchFound', payload: aMatch() });
    await vi.advanceTimersByTimeAsync(0);
    expect(t.socket.sentOf('leaveVideoRoom')).toEqual([{ next: false }, { next: false }]);
    expect(t.media.calls).not.toContain('openPeer');
    expect(t.state()).toMatchObject({ status: 'idle', partner: null });
  });

  it('goes back to Find Match, saying why, when the server cannot match now', async () => {
    const t = await untilSearching();
    t.socket.receive({ type: 'videoError', payload: { code: 'unavailable', reason: 'Matching is unavailable' } });
    await vi.advanceTimersByTimeAsync(0);
    expect(notify.error).toHaveBeenCalledWith('Matching is unavailable');
    expect(t.state()).toMatchObject({ view: 'call', status: 'idle' });
  });

  it('ends the matching session when the server refuses the user since the handshake (a ban)', async () => {
    const t = await untilSearching();
    vi.mocked(notify.error).mockClear();
    t.socket.receive({ type: 'videoError', payload: { code: 'banned', reason: 'Your account is restricted.' } });
    await vi.advanceTimersByTimeAsync(0);
    // No toast: the restriction screen says it.
    expect(notify.error).not.toHaveBeenCalled();
    expect(t.state().view).toBe('ready');
    expect(t.media.calls).toContain('stop');
  });

  it('goes back to the wizard, saying why, when the e-mail address is not confirmed yet', async () => {
    const t = await untilSearching();
    const reason = 'Confirm your e-mail address to start matching.';
    t.socket.receive({ type: 'videoError', payload: { code: 'email-unconfirmed', reason } });
    await vi.advanceTimersByTimeAsync(0);
    expect(notify.error).toHaveBeenCalledWith(reason);
    expect(t.state()).toMatchObject({ view: 'ready', status: 'idle' });
    expect(t.media.calls).toContain('stop');
    expect(t.socket.closed).toBe(true);
  });

  it('on a skip leaves the room, keeps the camera, offers feedback and searches again', async () => {
    const t = await connected();
    t.store.dispatch(a.skipRequested());
    await vi.advanceTimersByTimeAsync(0);
    expect(t.socket.sentOf('leaveVideoRoom')).toEqual([{ next: true }]);
    expect(t.media.calls).toContain('closePeer');
    expect(t.media.calls).not.toContain('stop');
    expect(t.socket.sentOf('startMatching')).toHaveLength(2);
    expect(t.state()).toMatchObject({
      status: 'searching',
      partner: null,
      feedback: { matchId: 'match-1', partnerName: 'Bob', phase: 'asking' },
    });
  });

  it('searches again when the partner leaves, but not while the report dialog is open', async () => {
    const t = await connected();
    t.store.dispatch(a.reportDialogToggled(true));
    t.socket.receive({ type: 'partnerDisconnected', payload: { matchId: 'match-1', reason: 'leave' } });
    await vi.advanceTimersByTimeAsync(0);
    // The chat stays until the next match, saying the partner left.
    expect(t.state()).toMatchObject({ partner: null, chat: [{ sender: 'system', text: 'Bob left the chat.' }] });
    expect(t.socket.sentOf('startMatching')).toHaveLength(1);
    t.store.dispatch(a.reportDialogToggled(false));
    await vi.advanceTimersByTimeAsync(0);
    expect(t.socket.sentOf('startMatching')).toHaveLength(2);
  });

  it("asks the server to relay the call once the report's own frame is taken, so it can take its snapshot too", async () => {
    const t = await connected();
    t.store.dispatch(a.reportDialogToggled(true));
    await vi.advanceTimersByTimeAsync(0);
    // Not on opening: moving the call to the SFU swaps the partner's video under the capture.
    expect(t.socket.sentOf('report:opened')).toEqual([]);
    t.store.dispatch(a.reportFrameTaken());
    await vi.advanceTimersByTimeAsync(0);
    expect(t.socket.sentOf('report:opened')).toEqual([{ target: 'bob' }]);
  });

  it('still hears Leave while the next match waits on the report dialog', async () => {
    const t = await connected();
    t.store.dispatch(a.reportDialogToggled(true));
    t.socket.receive({ type: 'partnerDisconnected', payload: { matchId: 'match-1', reason: 'leave' } });
    await vi.advanceTimersByTimeAsync(0);
    t.store.dispatch(a.leaveRequested());
    await vi.advanceTimersByTimeAsync(0);
    expect(t.state()).toMatchObject({ view: 'ready', status: 'idle' });
    expect(t.socket.closed).toBe(true);
    t.store.dispatch(a.reportDialogToggled(false));
    await vi.advanceTimersByTimeAsync(0);
    expect(t.socket.sentOf('startMatching')).toHaveLength(1);
  });

  it('holds the search after a failed connection too while the report dialog is open', async () => {
    const t = await untilSearching();
    t.socket.receive({ type: 'matchFound', payload: aMatch() });
    await vi.advanceTimersByTimeAsync(0);
    t.store.dispatch(a.reportDialogToggled(true));
    await vi.advanceTimersByTimeAsync(10_000);
    expect(t.socket.sentOf('leaveVideoRoom')).toEqual([{ next: true, failed: true }]);
    expect(t.socket.sentOf('startMatching')).toHaveLength(1);
    t.store.dispatch(a.reportDialogToggled(false));
    await vi.advanceTimersByTimeAsync(0);
    expect(t.socket.sentOf('startMatching')).toHaveLength(2);
    expect(t.state().status).toBe('searching');
  });

  it('on leave tells the server, releases the camera and shows the ready screen with the saved preferences', async () => {
    const t = await connected();
    t.store.dispatch(a.leaveRequested());
    await vi.advanceTimersByTimeAsync(0);
    expect(t.socket.sentOf('leaveVideoRoom')).toEqual([{ next: false }]);
    expect(t.media.calls).toContain('stop');
    expect(t.socket.closed).toBe(true);
    expect(t.state()).toMatchObject({ view: 'ready', status: 'idle' });
  });

  it('saves the preferences for the account at each start, and the next page load opens on the ready screen', async () => {
    const t = await untilSearching();
    expect(t.saved).toEqual([{ gender: 'male', country: null, ageRange: [25, 40] }]);
    // A new page of the same account (the fake server kept them): straight to the ready screen with them.
    const next = await setUpMatching({ loadPreferences: async () => t.saved.at(-1) ?? null });
    expect(next.state().view).toBe('loading');
    next.store.dispatch(a.preferencesRequested());
    await vi.advanceTimersByTimeAsync(0);
    expect(next.state()).toMatchObject({ view: 'ready', filters: { gender: 'male', ageRange: [25, 40] } });
    next.store.dispatch(a.editRequested());
    expect(next.state()).toMatchObject({ view: 'wizard', step: 0, filters: { gender: 'male' } });
  });

  it('opens the wizard with the defaults when the account has none, or they cannot be read (only logged)', async () => {
    const t = await setUpMatching();
    t.store.dispatch(a.preferencesRequested());
    await vi.advanceTimersByTimeAsync(0);
    expect(t.state()).toMatchObject({ view: 'wizard', step: 0, filters: { ageRange: [18, 35] } });
    const failing = await setUpMatching({ loadPreferences: () => Promise.reject(new Error('503')) });
    failing.store.dispatch(a.preferencesRequested());
    await vi.advanceTimersByTimeAsync(0);
    expect(failing.state().view).toBe('wizard');
  });

  it('clears what earlier versions kept of the preferences in this browser when the person signs out', async () => {
    localStorage.setItem('serendip.matchFilters', '{"gender":"male"}');
    const t = await untilSearching();
    t.store.dispatch(signedOut());
    expect(localStorage.getItem('serendip.matchFilters')).toBeNull();
  });

  it('shows the camera on the ready screen and turns it off when the screen goes, but not for the call', async () => {
    const t = await setUpMatching();
    t.store.dispatch(a.previewRequested());
    await vi.advanceTimersByTimeAsync(0);
    expect(t.media.calls).toContain('start');
    expect(t.state().permission).toBe('granted');
    t.store.dispatch(a.previewEnded());
    await vi.advanceTimersByTimeAsync(0);
    expect(t.media.calls.at(-1)).toBe('stop');
    expect(t.state().permission).toBe('idle');

    // Start from the ready screen: the camera stays on into the call.
    t.store.dispatch(a.previewRequested());
    await vi.advanceTimersByTimeAsync(0);
    t.store.dispatch(a.matchingStarted());
    t.store.dispatch(a.previewEnded());
    await vi.advanceTimersByTimeAsync(600);
    expect(t.media.calls.at(-1)).not.toBe('stop');
    expect(t.socket.sentOf('startMatching')).toHaveLength(1);
  });

  it('takes a leave clicked in the half second before startMatching goes: nothing is sent, the wizard is back', async () => {
    const t = await setUpMatching();
    t.store.dispatch(a.matchingStarted());
    await vi.advanceTimersByTimeAsync(200);
    expect(t.state()).toMatchObject({ view: 'call', status: 'searching' });
    t.store.dispatch(a.leaveRequested());
    await vi.advanceTimersByTimeAsync(1000);
    expect(t.socket.sentOf('startMatching')).toEqual([]);
    expect(t.media.calls).toContain('stop');
    expect(t.socket.closed).toBe(true);
    expect(t.state()).toMatchObject({ view: 'ready', status: 'idle' });
  });

  it('sends chat to the partner and shows both sides; ignores blank text', async () => {
    const t = await connected();
    t.store.dispatch(a.chatSent('  Hello Bob  '));
    t.store.dispatch(a.chatSent('   '));
    t.socket.receive({ type: 'chatMessage', payload: { from: 'bob', message: 'Hi!', sentAt: '' } });
    t.socket.receive({ type: 'chatMessage', payload: { from: 'eve', message: 'spam', sentAt: '' } });
    await vi.advanceTimersByTimeAsync(0);
    expect(t.socket.sentOf('sendChatMessage')).toEqual([
      { target: 'bob', message: 'Hello Bob', id: expect.any(String) },
    ]);
    expect(t.state().chat.map((l) => [l.sender, l.text])).toEqual([
      ['me', 'Hello Bob'],
      ['partner', 'Hi!'],
    ]);
  });

  it('sends its network quality every second while connected, and feedback then thanks for 1.5 s', async () => {
    const t = await connected();
    await vi.advanceTimersByTimeAsync(2_000);
    expect(t.socket.sentOf('network-quality')).toContainEqual({ target: 'bob', quality: 'excellent' });
    t.store.dispatch(a.skipRequested());
    await vi.advanceTimersByTimeAsync(0);
    t.store.dispatch(a.feedbackSubmitted({ rating: 4, additionalInformation: 'Nice' }));
    await vi.advanceTimersByTimeAsync(0);
    expect(t.feedback).toEqual([{ matchId: 'match-1', rating: 4, additionalInformation: 'Nice', type: 'videomatch' }]);
    expect(t.state().feedback?.phase).toBe('thanks');
    await vi.advanceTimersByTimeAsync(1_500);
    expect(t.state().feedback).toBeNull();
  });

  it('renews the session once when the socket is refused for an expired token, then gives up with the reason', async () => {
    const t = await untilSearching();
    const refused = { code: 'unauthenticated' as const, reason: 'Unauthorized, Please Log In.' };
    t.socket.receive({ type: 'refused', refusal: refused, message: refused.reason });
    await vi.advanceTimersByTimeAsync(0);
    expect(t.refreshed).toHaveLength(1);
    expect(t.socket.reconnects).toBe(1);
    t.socket.receive({ type: 'refused', refusal: refused, message: refused.reason });
    await vi.advanceTimersByTimeAsync(0);
    expect(t.refreshed).toHaveLength(1);
    expect(notify.error).toHaveBeenCalledWith('Unauthorized, Please Log In.');
    expect(t.state().view).toBe('ready');
  });
});
