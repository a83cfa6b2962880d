import type { RootState } from '../../app/store';

export const selectNotifications = (state: RootState) => state.notifications;
export const selectUnreadCount = (state: RootState) => state.notifications.unreadCount;
/** spec 2 "Announcement overlay": the oldest forced-open one not yet confirmed, if any. */
export const selectForcedOnScreen = (state: RootState) => state.notifications.forced[0];
