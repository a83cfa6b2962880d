import { MATCH_RECONNECT_GRACE_MS } from '@serendip/proto';
import type { ChatLine } from './matching.slice';

/**
 * The call this browser is in, kept so that a reload (or a new tab) within the server's grace period goes back to it
 * (spec 9 "Socket reconnection" holds the call for MATCH_RECONNECT_GRACE_MS). Only what the page itself showed: the
 * call's id, the partner's first name and the chat; the partner's profile comes again with matchResumed.
 */
export interface ActiveCall {
  userId: string;
  matchId: string;
  chatWith: string | null;
  chat: ChatLine[];
  /** The chat panel was open: it opens again. */
  chatOpen?: boolean;
  /** The tab that holds the call: only it forgets the record when its call ends. */
  tabId: string;
  /** Written every ACTIVE_CALL_TIMING.heartbeatMs while the tab is in the call (epoch ms). */
  heartbeatAt: number;
  /** When the tab went away (pagehide): a reload or a closed tab, not a tab still in the call. */
  leftAt?: number;
}

export const ACTIVE_CALL_KEY = 'serendip.activeCall';

export const ACTIVE_CALL_TIMING = {
  heartbeatMs: 2_000,
  /** No heartbeat for this long: the tab is gone (crashed), or a background tab's timers are held back; ask it. */
  staleAfterMs: 4_500,
  /** A new page needs about a second to open its socket: a record older than this finds the call over. */
  resumeWithinMs: MATCH_RECONNECT_GRACE_MS - 1_500,
  /** How long a new page waits for a tab still in the call to say so. */
  askTabsMs: 300,
} as const;

export const RESUME_TEXTS = {
  /** A new page asked for the call this browser was in, and it is over (the partner left, or the grace ran out). */
  callOver: 'Your call ended while the page was away.',
} as const;

/** What a new page does about a record of a call: go back to it, leave it to the tab holding it, ask, or nothing. */
export type ResumeVerdict = 'resume' | 'held' | 'ask' | 'none';

export function resumeVerdict(record: ActiveCall | null, userId: string, now: number): ResumeVerdict {
  if (!record || record.userId !== userId || tooOld(record, now)) return 'none';
  if (record.leftAt !== undefined) return 'resume';
  // Another tab of this browser is in that call now: it keeps it.
  return now - record.heartbeatAt < ACTIVE_CALL_TIMING.staleAfterMs ? 'held' : 'ask';
}

/** Older than a resume could use: the server has ended that call (or will before a new socket is up). */
export function tooOld(record: ActiveCall, now: number): boolean {
  return now - (record.leftAt ?? record.heartbeatAt) > ACTIVE_CALL_TIMING.resumeWithinMs;
}

/** The record as stored, or null when there is none or it is not one (an old version's, or edited by hand). */
export function parseActiveCall(text: string | null): ActiveCall | null {
  if (!text) return null;
  try {
    const value = JSON.parse(text) as Partial<ActiveCall> | null;
    if (!value || typeof value !== 'object') return null;
    const { userId, matchId, chatWith, chat, chatOpen, tabId, heartbeatAt, leftAt } = value;
    const isText = (v: unknown): v is string => typeof v === 'string' && v.length > 0 && v.length <= 128;
    if (!isText(userId) || !isText(matchId) || !isText(tabId) || typeof heartbeatAt !== 'number') return null;
    if (leftAt !== undefined && typeof leftAt !== 'number') return null;
    if (chatOpen !== undefined && typeof chatOpen !== 'boolean') return null;
    if (chatWith !== null && typeof chatWith !== 'string') return null;
    if (!Array.isArray(chat) || !chat.every(isChatLine)) return null;
    return {
      userId,
      matchId,
      chatWith,
      chat,
      ...(chatOpen !== undefined ? { chatOpen } : {}),
      tabId,
      heartbeatAt,
      ...(leftAt !== undefined ? { leftAt } : {}),
    };
  } catch {
    return null;
  }
}

function isChatLine(line: unknown): line is ChatLine {
  const l = line as Partial<ChatLine> | null;
  return (
    !!l &&
    typeof l.id === 'number' &&
    (l.sender === 'me' || l.sender === 'partner' || l.sender === 'system') &&
    typeof l.text === 'string' &&
    typeof l.at === 'number'
  );
}

/** Where the record lives, and how tabs of this browser learn whether one of them is still in a call. */
export interface ActiveCallStore {
  readonly tabId: string;
  load(): ActiveCall | null;
  save(record: Omit<ActiveCall, 'tabId'>): void;
  /** Removes the record if this tab wrote it (a newer tab's record of its own call stays). */
  forget(): void;
  /** Notes that this tab went away while in its call (a reload, a closed tab): a new page may take the call. */
  markLeft(at: number): void;
  /** Removes any record (signing out: the next person must not find the last one's chat). */
  forgetAny(): void;
  /** Calls `listener` when the page goes away (reload, closed tab, navigation elsewhere). */
  onPageHide(listener: () => void): () => void;
  /** Answers other tabs that ask whether the call `current()` names is held here. */
  answerTabs(current: () => string | null): () => void;
  /** Whether another tab still holds that call (it answers within ACTIVE_CALL_TIMING.askTabsMs). */
  heldElsewhere(matchId: string): Promise<boolean>;
}

const CHANNEL = 'serendip.activeCall';
type TabMessage = { type: 'holding?' | 'holding'; matchId: string };

/** localStorage for the record; a BroadcastChannel for the question to other tabs (their timers may be held back). */
export function browserActiveCallStore(storage: Storage = localStorage): ActiveCallStore {
  const tabId = Math.random().toString(36).slice(2) + Date.now().toString(36);
  const channel = () => (typeof BroadcastChannel === 'undefined' ? null : new BroadcastChannel(CHANNEL));
  const quietly = (work: () => void) => {
    try {
      work();
    } catch {
      // Private mode or a full storage: a reload then starts afresh, as before.
    }
  };
  const load = () => {
    try {
      return parseActiveCall(storage.getItem(ACTIVE_CALL_KEY));
    } catch {
      return null;
    }
  };
  return {
    tabId,
    load,
    save: (record) => quietly(() => storage.setItem(ACTIVE_CALL_KEY, JSON.stringify({ ...record, tabId }))),
    forget: () => {
      if (load()?.tabId === tabId) quietly(() => storage.removeItem(ACTIVE_CALL_KEY));
    },
    markLeft: (at) => {
      const record = load();
      if (record?.tabId === tabId)
        quietly(() => storage.setItem(ACTIVE_CALL_KEY, JSON.stringify({ ...record, leftAt: at })));
    },
    forgetAny: () => quietly(() => storage.removeItem(ACTIVE_CALL_KEY)),
    onPageHide(listener) {
      window.addEventListener('pagehide', listener);
      return () => window.removeEventListener('pagehide', listener);
    },
    answerTabs(current) {
      const tabs = channel();
      if (!tabs) return () => undefined;
      tabs.onmessage = ({ data }: MessageEvent<TabMessage>) => {
        if (data?.type === 'holding?' && data.matchId === current()) {
          tabs.postMessage({ type: 'holding', matchId: data.matchId } satisfies TabMessage);
        }
      };
      return () => tabs.close();
    },
    heldElsewhere(matchId) {
      const tabs = channel();
      if (!tabs) return Promise.resolve(false);
      return new Promise((resolve) => {
        const done = (held: boolean) => {
          clearTimeout(timer);
          tabs.close();
          resolve(held);
        };
        const timer = setTimeout(() => done(false), ACTIVE_CALL_TIMING.askTabsMs);
        tabs.onmessage = ({ data }: MessageEvent<TabMessage>) => {
          if (data?.type === 'holding' && data.matchId === matchId) done(true);
        };
        tabs.postMessage({ type: 'holding?', matchId } satisfies TabMessage);
      });
    },
  };
}
