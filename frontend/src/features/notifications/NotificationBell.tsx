import { Bell } from 'lucide-react';
import { Link } from 'react-router';
import { useAppDispatch, useAppSelector } from '../../app/hooks';
// Straight from the component files: the ui barrel would bring every component's CSS into this chunk.
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuLabel,
  DropdownMenuSeparator,
  DropdownMenuTrigger,
} from '../../ui/DropdownMenu';
import { NAV_PATHS } from '../navigation/nav-items';
import { notifiedAt, whenNotified } from './notification-time';
import { selectNotifications } from './notifications.selectors';
import { notificationsActions } from './notifications.slice';
import { unreadLabel, useOpenNotification } from './use-open-notification';
import './notifications.css';

/** How many of the latest the dropdown lists; the rest are on the notifications page. */
export const BELL_LATEST = 6;
export const NOTIFICATIONS_PATH = NAV_PATHS.notifications;

/**
 * The header's bell (spec 1, 4 "Notifications"): the unread count, and a dropdown of the latest with 'Mark all read'
 * and 'See all'. A click on one marks it read and opens its page if it has one.
 */
export function NotificationBell() {
  const dispatch = useAppDispatch();
  const { items, unreadCount, status } = useAppSelector(selectNotifications);
  const openNotification = useOpenNotification();
  const label = unreadLabel(unreadCount);
  const latest = items.slice(0, BELL_LATEST);
  return (
    <DropdownMenu
      modal={false}
      onOpenChange={(open) => {
        // Not fetched yet (no socket) or failed: opening asks, so the list never says 'Loading' for good.
        if (open && (status === 'idle' || status === 'failed')) dispatch(notificationsActions.latestRequested());
      }}
    >
      <DropdownMenuTrigger className="notification-bell">
        <Bell size={20} aria-hidden="true" />
        {unreadCount > 0 && (
          <span className="notification-bell__badge" aria-hidden="true" data-testid="unread-count">
            {label.badge}
          </span>
        )}
        <span className="visually-hidden">{label.text}</span>
      </DropdownMenuTrigger>
      <DropdownMenuContent className="notification-menu" aria-label="Notifications">
        <div className="notification-menu__head">
          <DropdownMenuLabel className="notification-menu__title">Notifications</DropdownMenuLabel>
          {unreadCount > 0 && (
            // An item, so the arrow keys reach it; the menu stays open to show everything read.
            <DropdownMenuItem
              className="notification-menu__mark-all"
              onSelect={(event) => {
                event.preventDefault();
                dispatch(notificationsActions.allReadRequested());
              }}
            >
              Mark all read
            </DropdownMenuItem>
          )}
        </div>
        <DropdownMenuSeparator />
        {latest.length === 0 ? (
          <p className="notification-menu__empty">
            {status === 'loaded' || status === 'failed' ? 'No notifications yet.' : 'Loading notifications…'}
          </p>
        ) : (
          latest.map((notification) => (
            <DropdownMenuItem
              key={notification._id}
              className={notification.read ? 'notification-menu__item' : 'notification-menu__item is-unread'}
              onSelect={() => openNotification(notification)}
            >
              <span className="notification-menu__text">
                <span className="notification-menu__item-title">{notification.title}</span>
                <time dateTime={notification.createdAt} title={notifiedAt(notification.createdAt)}>
                  {whenNotified(notification.createdAt)}
                </time>
              </span>
              {!notification.read && <span className="notification-dot" role="img" aria-label="Unread" />}
            </DropdownMenuItem>
          ))
        )}
        <DropdownMenuSeparator />
        <DropdownMenuItem asChild className="notification-menu__see-all">
          <Link to={NOTIFICATIONS_PATH}>See all</Link>
        </DropdownMenuItem>
      </DropdownMenuContent>
    </DropdownMenu>
  );
}
