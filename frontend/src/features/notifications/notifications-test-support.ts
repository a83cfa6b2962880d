import type { NotificationView } from '@serendip/proto';
import { vi } from 'vitest';
import type { NotificationPage, NotificationsApi } from './notifications-api';
import type { NotificationSounds } from './notification-sounds';

let serial = 0;

/** A notification as the server lists it; `createdAt` steps forward a minute per call unless given. */
export function aNotification(overrides: Partial<NotificationView> = {}): NotificationView {
  serial += 1;
  return {
    _id: `n-${serial}`,
    kind: 'announcement',
    title: `Notice ${serial}`,
    description: `Something happened (${serial}).`,
    forceOpen: false,
    read: false,
    createdAt: new Date(Date.UTC(2026, 10, 20, 12, serial)).toISOString(),
    ...overrides,
  };
}

/** The notification calls answered from memory; every call is a spy. */
export function fakeNotificationsApi(pages: NotificationPage[] = [], forced: NotificationView[] = []) {
  const api = {
    list: vi.fn<NotificationsApi['list']>(async (_userId, page) => {
      const answer = pages[page - 1];
      if (!answer) throw new Error(`no page ${page}`);
      return answer;
    }),
    forceOpen: vi.fn<NotificationsApi['forceOpen']>(async () => forced),
    markForceAsRead: vi.fn<NotificationsApi['markForceAsRead']>(async () => undefined),
    markRead: vi.fn<NotificationsApi['markRead']>(async () => undefined),
    markAllRead: vi.fn<NotificationsApi['markAllRead']>(async () => undefined),
  } satisfies NotificationsApi;
  return api;
}

export function aPage(items: NotificationView[], page = 1, totalPages = 1, unreadCount?: number): NotificationPage {
  return { items, page, totalPages, unreadCount: unreadCount ?? items.filter((n) => !n.read).length };
}

/** Sounds that count how often one played; `on` is the mute switch. */
export function fakeSounds(on = true) {
  const state = { on };
  return Object.assign(state, { play: vi.fn(), enabled: (): boolean => state.on }) satisfies NotificationSounds;
}
