import { createSlice, type PayloadAction } from '@reduxjs/toolkit';
import type { NotificationView } from '@serendip/proto';
import { sessionEnded, sessionEndedElsewhere, sessionExpired, signedIn, signedOut } from '../auth/session.slice';
import type { NotificationPage } from './notifications-api';
import { mergeForced, mergeNotifications } from './notification-list';

export type NotificationsLoad = 'idle' | 'loading' | 'loaded' | 'failed';

export interface NotificationsState {
  /** Newest first: the pages loaded so far and what arrived live since. */
  items: NotificationView[];
  unreadCount: number;
  /** The last page loaded (0: none yet) and how many the server has. */
  page: number;
  totalPages: number;
  status: NotificationsLoad;
  loadingMore: boolean;
  /** Forced-open ones not yet confirmed with OK, oldest first: the first is on screen (spec 2). */
  forced: NotificationView[];
  /** Confirmed on this page: a late copy of one (a repeat push, a slow list) never brings it back. */
  confirmed: string[];
}

const initialState: NotificationsState = {
  items: [],
  unreadCount: 0,
  page: 0,
  totalPages: 0,
  status: 'idle',
  loadingMore: false,
  forced: [],
  confirmed: [],
};

function markRead(state: NotificationsState, id: string) {
  const item = state.items.find((n) => n._id === id);
  if (!item || item.read) return;
  item.read = true;
  state.unreadCount = Math.max(0, state.unreadCount - 1);
}

const notificationsSlice = createSlice({
  name: 'notifications',
  initialState,
  reducers: {
    /** Page 1 again (on connect, or the page's retry); the forced-open list with it. */
    latestRequested(state) {
      if (state.status !== 'loaded') state.status = 'loading';
    },
    moreRequested(state) {
      if (state.page < state.totalPages) state.loadingMore = true;
    },
    pageLoaded(state, action: PayloadAction<NotificationPage>) {
      const { items, page, totalPages, unreadCount } = action.payload;
      // A confirmed forced one is read whatever a list that was on its way says.
      const fresh = items.map((n) => (state.confirmed.includes(n._id) ? { ...n, read: true } : n));
      state.items = mergeNotifications(state.items, fresh);
      // Read on the server is confirmed, for a forced-open one: a late copy of its push (delivery is at least once)
      // that came before this list does not keep it on screen.
      const read = new Set(fresh.filter((n) => n.read).map((n) => n._id));
      state.forced = state.forced.filter((n) => !read.has(n._id));
      state.totalPages = totalPages;
      state.status = 'loaded';
      state.loadingMore = false;
      if (page === 1) {
        state.page = Math.max(state.page, 1);
        state.unreadCount = unreadCount;
      } else {
        state.page = page;
      }
    },
    pageFailed(state) {
      if (state.status !== 'loaded') state.status = 'failed';
      state.loadingMore = false;
    },
    forcedLoaded(state, action: PayloadAction<NotificationView[]>) {
      state.forced = mergeForced(state.forced, action.payload, state.confirmed);
    },
    /**
     * Live (spec 4): new ones go on top, unread ones count, forced-open ones queue for the overlay; an id already
     * here is a repeat and changes nothing.
     */
    arrived(state, action: PayloadAction<NotificationView[]>) {
      const fresh = action.payload.filter(
        (n) => !state.confirmed.includes(n._id) && !state.items.some((listed) => listed._id === n._id),
      );
      if (fresh.length === 0) return;
      state.items = mergeNotifications(state.items, fresh);
      state.unreadCount += fresh.filter((n) => !n.read).length;
      state.forced = mergeForced(state.forced, fresh, state.confirmed);
    },
    readRequested(state, action: PayloadAction<string>) {
      markRead(state, action.payload);
    },
    allReadRequested(state) {
      for (const item of state.items) item.read = true;
      state.unreadCount = 0;
    },
    /** OK on the overlay (spec 4): it goes, for good. */
    forcedConfirmed(state, action: PayloadAction<string>) {
      const id = action.payload;
      state.forced = state.forced.filter((n) => n._id !== id);
      if (!state.confirmed.includes(id)) state.confirmed.push(id);
      markRead(state, id);
    },
  },
  extraReducers: (builder) => {
    // Someone else may sign in on this page next: nothing of this user's stays.
    builder.addMatcher(
      (action) =>
        signedIn.match(action) ||
        signedOut.match(action) ||
        sessionEnded.match(action) ||
        sessionExpired.match(action) ||
        sessionEndedElsewhere.match(action),
      () => initialState,
    );
  },
});

export const notificationsActions = notificationsSlice.actions;
export const notificationsReducer = notificationsSlice.reducer;
