import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { aUser } from '../auth/auth-test-support';
import { sessionStarted, signedOut } from '../auth/session.slice';
import { ACTIVE_CALL_TIMING, type ActiveCall, RESUME_TEXTS } from './active-call';
import { aJoinAnswer, aMatch, setUpMatching } from './matching-test-support';
import { matchingActions as a } from './matching.slice';
import { DEFAULT_FILTERS } from './preferences';

vi.mock('../../shared/toasts/notify', () => ({ notify: { success: vi.fn(), error: vi.fn(), info: vi.fn() } }));
const { notify } = await import('../../shared/toasts/notify');

const ada = aUser({ _id: 'user-ada', firstName: 'Ada' });

/** Ada's app, signed in; `opened` records what each video socket was opened to resume. */
async function signedIn() {
  const t = await setUpMatching();
  const opened: ({ matchId: string } | undefined)[] = [];
  const open = t.services.openVideoSocket;
  t.services.openVideoSocket = (resume) => {
    opened.push(resume);
    return open(resume);
  };
  t.store.dispatch(sessionStarted(ada));
  return { ...t, opened };
}

/** In a connected call with Bob, searching from 'Start Matching' as usual. */
async function inCall(match = aMatch()) {
  const t = await signedIn();
  t.store.dispatch(a.preferencesLoaded(DEFAULT_FILTERS));
  t.store.dispatch(a.matchingStarted());
  await vi.advanceTimersByTimeAsync(500);
  t.socket.receive({ type: 'matchFound', payload: match });
  await vi.advanceTimersByTimeAsync(0);
  t.media.raise({ type: 'connection-state', state: 'connected' });
  await vi.advanceTimersByTimeAsync(0);
  return t;
}

const leftCall = (overrides: Partial<ActiveCall> = {}): ActiveCall => ({
  userId: ada._id,
  matchId: 'match-1',
  chatWith: 'Bob',
  chat: [
    { id: 1, sender: 'me', text: 'Hi Bob', at: Date.now() - 4_000 },
    { id: 2, sender: 'partner', text: 'Hi Ada', at: Date.now() - 3_000 },
  ],
  tabId: 'tab-before-the-reload',
  heartbeatAt: Date.now() - 1_500,
  leftAt: Date.now() - 1_000,
  chatOpen: true,
  ...overrides,
});

/** A page load that finds `record`: the preferences come, then the saga decides. */
async function pageLoad(record: ActiveCall | null) {
  const t = await signedIn();
  t.activeCall.record = record;
  t.store.dispatch(a.preferencesLoaded(DEFAULT_FILTERS));
  await vi.advanceTimersByTimeAsync(0);
  return t;
}

describe('a call kept across a reload (resume within the grace period)', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => {
    vi.useRealTimers();
    vi.clearAllMocks();
  });

  it('keeps a record of the call with its chat while in it, notes the page going away, and forgets it on Leave', async () => {
    const t = await inCall();
    expect(t.activeCall.record).toMatchObject({ userId: ada._id, matchId: 'match-1', chatWith: 'Bob', chat: [] });
    t.store.dispatch(a.chatToggled());
    await vi.advanceTimersByTimeAsync(0);
    expect(t.activeCall.record?.chatOpen).toBe(true);
    t.store.dispatch(a.chatSent('Hello'));
    await vi.advanceTimersByTimeAsync(0);
    expect(t.activeCall.record?.chat).toMatchObject([{ sender: 'me', text: 'Hello' }]);
    // Beats while in the call, and answers a new tab that asks.
    const beat = t.activeCall.record!.heartbeatAt;
    await vi.advanceTimersByTimeAsync(ACTIVE_CALL_TIMING.heartbeatMs);
    expect(t.activeCall.record!.heartbeatAt).toBeGreaterThan(beat);
    expect(t.activeCall.answering?.()).toBe('match-1');

    t.activeCall.pageHide?.();
    expect(t.activeCall.record?.leftAt).toBe(Date.now());
    t.store.dispatch(a.leaveRequested());
    await vi.advanceTimersByTimeAsync(0);
    expect(t.activeCall.record).toBeNull();
  });

  it('forgets the record when the partner leaves, and on sign-out', async () => {
    const t = await inCall();
    t.socket.receive({ type: 'partnerDisconnected', payload: { matchId: 'match-1', reason: 'leave' } });
    await vi.advanceTimersByTimeAsync(0);
    expect(t.activeCall.record).toBeNull();

    const u = await inCall();
    u.store.dispatch(signedOut());
    await vi.advanceTimersByTimeAsync(0);
    expect(u.activeCall.record).toBeNull();
  });

  it('a reloaded page goes straight back into the call: its chat, the same partner, the media anew as answerer', async () => {
    const t = await pageLoad(leftCall());
    expect(t.state()).toMatchObject({ view: 'call', status: 'connecting', chatWith: 'Bob', chatOpen: true });
    expect(t.state().chat.map((l) => l.text)).toEqual(['Hi Bob', 'Hi Ada']);
    expect(t.opened).toEqual([{ matchId: 'match-1' }]);
    // No search: the server gives the call back.
    expect(t.socket.sentOf('startMatching')).toEqual([]);

    t.socket.receive({ type: 'matchResumed', payload: aMatch({ role: 'answerer' }) });
    await vi.advanceTimersByTimeAsync(0);
    expect(t.state()).toMatchObject({ matchId: 'match-1', partner: { firstName: 'Bob' }, status: 'connecting' });
    expect(t.state().chat.map((l) => l.text)).toEqual(['Hi Bob', 'Hi Ada']);
    expect(t.media.calls).toEqual(['start', 'openPeer']);

    t.socket.receive({ type: 'offer', payload: { from: 'bob', description: { type: 'offer', sdp: 'x' } } });
    await vi.advanceTimersByTimeAsync(0);
    expect(t.socket.sentOf('answer')).toHaveLength(1);
    t.media.raise({ type: 'connection-state', state: 'connected' });
    await vi.advanceTimersByTimeAsync(0);
    expect(t.state().status).toBe('connected');
    // This tab holds the call now: its own record, with the restored chat.
    expect(t.activeCall.record).toMatchObject({ tabId: t.activeCall.tabId, matchId: 'match-1' });
    expect(t.activeCall.record?.chat).toHaveLength(2);
  });

  it('a relayed call is joined again through the SFU', async () => {
    const t = await pageLoad(leftCall());
    t.socket.answers['media:join'] = aJoinAnswer();
    t.socket.receive({ type: 'matchResumed', payload: aMatch({ role: 'answerer', media: 'relay' }) });
    await vi.advanceTimersByTimeAsync(0);
    expect(t.media.calls).toContain('joinRelay');
    expect(t.socket.sentOf('media:join')).toHaveLength(1);
  });

  it('leaves a call to the tab still in it; a tab whose beat is late is asked first', async () => {
    const held = await pageLoad(leftCall({ leftAt: undefined, heartbeatAt: Date.now() - 1_000 }));
    expect(held.state().view).toBe('ready');
    expect(held.opened).toEqual([]);

    const stale = leftCall({ leftAt: undefined, heartbeatAt: Date.now() - ACTIVE_CALL_TIMING.staleAfterMs - 500 });
    const t = await signedIn();
    t.activeCall.record = stale;
    t.activeCall.heldByAnotherTab = 'match-1';
    t.store.dispatch(a.preferencesLoaded(DEFAULT_FILTERS));
    await vi.advanceTimersByTimeAsync(0);
    expect(t.state().view).toBe('ready');

    // Nobody answers: that tab is gone (it crashed), and the call is taken back.
    const gone = await pageLoad(stale);
    expect(gone.state().view).toBe('call');
  });

  it("takes nothing from another user's record, or from one older than the grace period", async () => {
    expect((await pageLoad(leftCall({ userId: 'user-eve' }))).state().view).toBe('ready');
    const old = Date.now() - ACTIVE_CALL_TIMING.resumeWithinMs - 1;
    const late = await pageLoad(leftCall({ leftAt: old, heartbeatAt: old }));
    expect(late.state().view).toBe('ready');
    // Nor is its chat kept any longer.
    expect(late.activeCall.record).toBeNull();
  });

  it('a call that is over by then leads to the usual start with a short notice, and its record goes', async () => {
    const t = await pageLoad(leftCall());
    t.socket.receive({ type: 'partnerDisconnected', payload: { matchId: 'match-1', reason: 'disconnect' } });
    await vi.advanceTimersByTimeAsync(0);
    expect(notify.info).toHaveBeenCalledWith(RESUME_TEXTS.callOver);
    expect(notify.error).not.toHaveBeenCalled();
    expect(t.state()).toMatchObject({ view: 'ready', chat: [] });
    expect(t.socket.closed).toBe(true);
    expect(t.media.calls).toContain('stop');
    expect(t.activeCall.record).toBeNull();
  });

  it('no answer from the server within the connection timeout counts as over', async () => {
    const t = await pageLoad(leftCall());
    await vi.advanceTimersByTimeAsync(10_000);
    expect(notify.info).toHaveBeenCalledWith(RESUME_TEXTS.callOver);
    expect(t.state().view).toBe('ready');
  });

  it('the side that stayed: a partner back on a new page gets a new connection, offered by this side', async () => {
    const t = await inCall(aMatch({ role: 'answerer' }));
    t.socket.receive({ type: 'partnerReconnecting', payload: { matchId: 'match-1' } });
    await vi.advanceTimersByTimeAsync(0);
    expect(t.state().partnerReconnecting).toBe(true);
    t.media.calls.length = 0;

    t.socket.receive({ type: 'partnerReconnected', payload: { matchId: 'match-1', mediaRestart: true } });
    await vi.advanceTimersByTimeAsync(0);
    expect(t.media.calls).toEqual(['openPeer', 'createOffer']);
    expect(t.socket.sentOf('offer')).toEqual([{ target: 'bob', description: { type: 'offer', sdp: 'v=0 offer' } }]);
    expect(t.state()).toMatchObject({ partnerReconnecting: false, status: 'connecting' });
    expect(t.state().message).toBe('Establishing connection...');

    t.media.raise({ type: 'connection-state', state: 'connected' });
    await vi.advanceTimersByTimeAsync(0);
    expect(t.state().status).toBe('connected');
    expect(t.socket.sentOf('rtc-connected')).toHaveLength(2);
  });

  it('the side that stayed: a new connection not up within 10 s tries another match', async () => {
    const t = await inCall();
    t.socket.receive({ type: 'partnerReconnected', payload: { matchId: 'match-1', mediaRestart: true } });
    await vi.advanceTimersByTimeAsync(10_000);
    expect(notify.error).toHaveBeenCalledWith('Connection Failed. Trying another match...');
    expect(t.socket.sentOf('leaveVideoRoom')).toEqual([{ next: true, failed: true }]);
  });

  it('a partner back after a blip (no restart) changes nothing; relayed, only our switches are told again', async () => {
    const p2p = await inCall();
    p2p.media.calls.length = 0;
    p2p.socket.receive({ type: 'partnerReconnected', payload: { matchId: 'match-1' } });
    await vi.advanceTimersByTimeAsync(0);
    expect(p2p.media.calls).toEqual([]);

    const relayed = await inCall(aMatch({ media: 'relay' }));
    relayed.media.calls.length = 0;
    const toggles = relayed.socket.sentOf('mic-toggle').length;
    relayed.socket.receive({ type: 'partnerReconnected', payload: { matchId: 'match-1', mediaRestart: true } });
    await vi.advanceTimersByTimeAsync(0);
    expect(relayed.media.calls).toEqual([]);
    expect(relayed.socket.sentOf('mic-toggle')).toHaveLength(toggles + 1);
    expect(relayed.state().status).toBe('connected');
  });

  it('back after a blip, the partner may go by a new per-call name (a new matchmaker took the call over): it is used from then on', async () => {
    const t = await inCall();
    const renamed = aMatch({ partnerId: 'bob-again', partnerUser: { ...aMatch().partnerUser, _id: 'bob-again' } });
    t.socket.receive({ type: 'matchResumed', payload: renamed });
    await vi.advanceTimersByTimeAsync(0);
    t.store.dispatch(a.chatSent('Still there?'));
    await vi.advanceTimersByTimeAsync(0);
    expect(t.socket.sentOf('sendChatMessage')).toEqual([expect.objectContaining({ target: 'bob-again' })]);
    t.socket.receive({ type: 'chatMessage', payload: { from: 'bob-again', message: 'Yes', sentAt: '', id: 'line-1' } });
    await vi.advanceTimersByTimeAsync(0);
    expect(t.state().chat.map((l) => l.text)).toEqual(['Still there?', 'Yes']);
    // Nothing else about the call changes: no new connection, the same partner shown.
    expect(t.state()).toMatchObject({ status: 'connected', partner: { firstName: 'Bob', _id: 'bob-again' } });
  });

  it('lines sent while the partner was away go again once they are back (the same id), and only those', async () => {
    const t = await inCall();
    t.store.dispatch(a.chatSent('Before'));
    t.socket.receive({ type: 'partnerReconnecting', payload: { matchId: 'match-1' } });
    await vi.advanceTimersByTimeAsync(0);
    t.store.dispatch(a.chatSent('Are you back?'));
    await vi.advanceTimersByTimeAsync(0);
    t.socket.receive({ type: 'partnerReconnected', payload: { matchId: 'match-1', mediaRestart: true } });
    await vi.advanceTimersByTimeAsync(0);
    const sent = t.socket.sentOf('sendChatMessage') as { message: string; id: string }[];
    expect(sent.map((l) => l.message)).toEqual(['Before', 'Are you back?', 'Are you back?']);
    expect(sent[2]!.id).toBe(sent[1]!.id);
    expect(sent[1]!.id).not.toBe(sent[0]!.id);
    // Our own chat shows each line once.
    expect(t.state().chat.map((l) => l.text)).toEqual(['Before', 'Are you back?']);
    t.socket.receive({ type: 'partnerReconnected', payload: { matchId: 'match-1' } });
    await vi.advanceTimersByTimeAsync(0);
    expect(t.socket.sentOf('sendChatMessage')).toHaveLength(3);
  });

  it("shows a partner's line once when it comes again with the same id", async () => {
    const t = await inCall();
    const line = { from: 'bob', message: 'Are you back?', sentAt: '', id: 'line-7' };
    t.socket.receive({ type: 'chatMessage', payload: line });
    t.socket.receive({ type: 'chatMessage', payload: line });
    t.socket.receive({ type: 'chatMessage', payload: { ...line, id: 'line-8' } });
    t.socket.receive({ type: 'chatMessage', payload: { from: 'bob', message: 'No id', sentAt: '' } });
    t.socket.receive({ type: 'chatMessage', payload: { from: 'bob', message: 'No id', sentAt: '' } });
    await vi.advanceTimersByTimeAsync(0);
    expect(t.state().chat.map((l) => l.text)).toEqual(['Are you back?', 'Are you back?', 'No id', 'No id']);
  });
});
