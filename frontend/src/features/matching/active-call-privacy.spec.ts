import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { aUser } from '../auth/auth-test-support';
import { sessionEndedElsewhere, sessionExpired, sessionStarted } from '../auth/session.slice';
import { ACTIVE_CALL_TIMING, type ActiveCall } from './active-call';
import { FakeActiveCallStore, setUpMatching } from './matching-test-support';

const ada = aUser({ _id: 'user-ada', firstName: 'Ada' });

/** A call Ada was in, with a stranger's words in its chat; `leftAt` ms ago. */
const record = (leftAgoMs: number): ActiveCall => ({
  userId: ada._id,
  matchId: 'match-1',
  chatWith: 'Bob',
  chat: [{ id: 1, sender: 'partner', text: 'my number is 555-0100', at: Date.now() - leftAgoMs }],
  tabId: 'a-closed-tab',
  heartbeatAt: Date.now() - leftAgoMs,
  leftAt: Date.now() - leftAgoMs,
});

describe("the record of a call (a stranger's chat) does not outlive its use on this browser", () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('is forgotten at the next page load, on any page, once too old to resume', async () => {
    const activeCall = new FakeActiveCallStore();
    activeCall.record = record(ACTIVE_CALL_TIMING.resumeWithinMs + 60_000);
    // No visit to the match page (its preferences never load): the app starting is enough.
    await setUpMatching({ activeCall });
    expect(activeCall.record).toBeNull();
  });

  it('is kept at a page load while a resume can still use it', async () => {
    const activeCall = new FakeActiveCallStore();
    activeCall.record = record(1_000);
    await setUpMatching({ activeCall });
    expect(activeCall.record).not.toBeNull();
  });

  for (const [name, ended] of [
    ['expired', sessionExpired],
    ['ended elsewhere', sessionEndedElsewhere],
  ] as const) {
    it(`is forgotten when the session is ${name}, as when signing out`, async () => {
      const activeCall = new FakeActiveCallStore();
      const t = await setUpMatching({ activeCall });
      t.store.dispatch(sessionStarted(ada));
      activeCall.record = record(1_000);
      t.store.dispatch(ended());
      await vi.advanceTimersByTimeAsync(0);
      expect(activeCall.record).toBeNull();
    });
  }
});
