import { afterEach, describe, expect, it } from 'vitest';
import {
  ACTIVE_CALL_KEY,
  ACTIVE_CALL_TIMING,
  type ActiveCall,
  browserActiveCallStore,
  parseActiveCall,
  resumeVerdict,
} from './active-call';

const NOW = 1_800_000_000_000;
const record = (overrides: Partial<ActiveCall> = {}): ActiveCall => ({
  userId: 'ada',
  matchId: 'match-1',
  chatWith: 'Bob',
  chat: [{ id: 1, sender: 'me', text: 'Hi', at: NOW - 5_000 }],
  tabId: 'tab-1',
  heartbeatAt: NOW - 1_000,
  ...overrides,
});

describe('the record of the call in progress (a reload goes back to it)', () => {
  afterEach(() => localStorage.clear());

  it('goes back to a call whose page went away within the grace period, and only for the same user', () => {
    expect(resumeVerdict(record({ leftAt: NOW - 2_000 }), 'ada', NOW)).toBe('resume');
    expect(resumeVerdict(record({ leftAt: NOW - 2_000 }), 'eve', NOW)).toBe('none');
    expect(resumeVerdict(null, 'ada', NOW)).toBe('none');
    // Too late: the server has ended it (or will before the new socket is up).
    const late = NOW - ACTIVE_CALL_TIMING.resumeWithinMs - 1;
    expect(resumeVerdict(record({ heartbeatAt: late - 2_000, leftAt: late }), 'ada', NOW)).toBe('none');
  });

  it('leaves a call to the tab still in it, and asks the tabs when that tab has not beaten lately', () => {
    expect(resumeVerdict(record({ heartbeatAt: NOW - 1_000 }), 'ada', NOW)).toBe('held');
    expect(resumeVerdict(record({ heartbeatAt: NOW - ACTIVE_CALL_TIMING.staleAfterMs - 1 }), 'ada', NOW)).toBe('ask');
  });

  it('reads only a well-formed record', () => {
    expect(parseActiveCall(JSON.stringify(record()))).toEqual(record());
    expect(parseActiveCall(null)).toBeNull();
    expect(parseActiveCall('{not json')).toBeNull();
    expect(parseActiveCall(JSON.stringify({ ...record(), matchId: 42 }))).toBeNull();
    expect(parseActiveCall(JSON.stringify({ ...record(), chat: [{ text: 'x' }] }))).toBeNull();
    expect(parseActiveCall(JSON.stringify({ ...record(), leftAt: 'soon' }))).toBeNull();
    expect(parseActiveCall(JSON.stringify({ ...record(), chatOpen: 'yes' }))).toBeNull();
    expect(parseActiveCall(JSON.stringify({ ...record(), chatOpen: true }))?.chatOpen).toBe(true);
  });

  it('keeps the record in localStorage; a tab forgets only its own, and notes when it went away', () => {
    const mine = browserActiveCallStore(localStorage);
    const other = browserActiveCallStore(localStorage);
    const { tabId: _ignored, ...call } = record();
    mine.save(call);
    expect(parseActiveCall(localStorage.getItem(ACTIVE_CALL_KEY))).toEqual({ ...call, tabId: mine.tabId });
    other.forget();
    other.markLeft(NOW);
    expect(mine.load()?.leftAt).toBeUndefined();
    mine.markLeft(NOW);
    expect(other.load()).toMatchObject({ matchId: 'match-1', leftAt: NOW });
    mine.forget();
    expect(localStorage.getItem(ACTIVE_CALL_KEY)).toBeNull();
    mine.save(call);
    other.forgetAny();
    expect(mine.load()).toBeNull();
  });

  it('a tab in the call answers another that asks; nobody answers for a call no tab holds', async () => {
    const inCall = browserActiveCallStore(localStorage);
    const newTab = browserActiveCallStore(localStorage);
    const stop = inCall.answerTabs(() => 'match-1');
    try {
      expect(await newTab.heldElsewhere('match-1')).toBe(true);
      expect(await newTab.heldElsewhere('match-2')).toBe(false);
    } finally {
      stop();
    }
    expect(await newTab.heldElsewhere('match-1')).toBe(false);
  });
});
