import type { NotificationView } from '@serendip/proto';
import { useNavigate } from 'react-router';
import { useAppDispatch } from '../../app/hooks';
import { safeRedirectTarget } from '../auth/safe-redirect';
import { notificationsActions } from './notifications.slice';

/** A notification clicked: it is read now, and its page (an in-app path only) opens when it has one. */
export function useOpenNotification() {
  const dispatch = useAppDispatch();
  const navigate = useNavigate();
  return (notification: NotificationView) => {
    if (!notification.read) dispatch(notificationsActions.readRequested(notification._id));
    const target = notification.link && safeRedirectTarget(notification.link, '');
    if (target) void navigate(target);
  };
}

/** What the count says, for the bell's badge ('99+' past 99) and for screen readers. */
export function unreadLabel(count: number): { badge: string; text: string } {
  return {
    badge: count > 99 ? '99+' : String(count),
    text: count === 0 ? 'Notifications, none unread' : `Notifications, ${count} unread`,
  };
}
