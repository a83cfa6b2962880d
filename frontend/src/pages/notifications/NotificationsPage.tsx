import type { NotificationView } from '@serendip/proto';
import { BellOff, CheckCheck, Megaphone, RotateCw } from 'lucide-react';
import { useEffect } from 'react';
import { useAppDispatch, useAppSelector } from '../../app/hooks';
import { notifiedAt, whenNotified } from '../../features/notifications/notification-time';
import { selectNotifications } from '../../features/notifications/notifications.selectors';
import { notificationsActions } from '../../features/notifications/notifications.slice';
import { useOpenNotification } from '../../features/notifications/use-open-notification';
import { useDocumentTitle } from '../../shared/use-document-title';
import { Button } from '../../ui/Button';
import { Spinner } from '../../ui/Spinner';
import '../../features/notifications/notifications.css';
import './notifications-page.css';

/**
 * The full notifications page (spec 2 "Other screens"): read and unread, newest first, 'Mark all read', and 'Load
 * More' while the server has older pages.
 */
export function NotificationsPage() {
  useDocumentTitle('Notifications');
  const dispatch = useAppDispatch();
  const { items, unreadCount, status, page, totalPages, loadingMore } = useAppSelector(selectNotifications);

  // The socket's connect fetches the list; a page opened without it (or after a failure) asks itself.
  useEffect(() => {
    if (status === 'idle' || status === 'failed') dispatch(notificationsActions.latestRequested());
    // Once, on opening: a failure afterwards shows 'Try again' instead of asking in a loop.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  return (
    <section className="notifications-page" aria-labelledby="notifications-title">
      <header className="notifications-page__head">
        <div>
          <h1 id="notifications-title" className="notifications-page__title">
            Notifications
          </h1>
          <p className="notifications-page__intro" aria-live="polite">
            {unreadCount === 0 ? 'You are all caught up.' : `${unreadCount} unread`}
          </p>
        </div>
        <Button
          variant="quiet"
          size="sm"
          disabled={unreadCount === 0}
          onClick={() => dispatch(notificationsActions.allReadRequested())}
        >
          <CheckCheck size={16} aria-hidden="true" /> Mark all read
        </Button>
      </header>
      {items.length > 0 ? (
        <>
          <ul className="notifications-page__list">
            {items.map((notification) => (
              <li key={notification._id}>
                <NotificationRow notification={notification} />
              </li>
            ))}
          </ul>
          {page < totalPages && (
            <Button
              className="notifications-page__more"
              variant="quiet"
              disabled={loadingMore}
              onClick={() => dispatch(notificationsActions.moreRequested())}
            >
              {loadingMore ? 'Loading…' : 'Load More'}
            </Button>
          )}
        </>
      ) : status === 'failed' ? (
        <div className="notifications-page__state" role="alert">
          <p>We couldn&apos;t load your notifications.</p>
          <Button variant="quiet" size="sm" onClick={() => dispatch(notificationsActions.latestRequested())}>
            <RotateCw size={16} aria-hidden="true" /> Try again
          </Button>
        </div>
      ) : status === 'loaded' ? (
        <div className="notifications-page__state">
          <BellOff size={28} aria-hidden="true" />
          <p>No notifications yet.</p>
          <p className="notifications-page__hint">
            News from the Serendip team, about your reports and about your posts shows here.
          </p>
        </div>
      ) : (
        <Spinner className="notifications-page__loading" label="Loading notifications" />
      )}
    </section>
  );
}

function NotificationRow({ notification }: { notification: NotificationView }) {
  const open = useOpenNotification();
  const unread = !notification.read;
  return (
    <button
      type="button"
      className={unread ? 'notification-row is-unread' : 'notification-row'}
      onClick={() => open(notification)}
    >
      <span className="notification-row__body">
        <span className="notification-row__title">
          {notification.kind === 'announcement' && <Megaphone size={16} aria-hidden="true" />}
          {notification.title}
        </span>
        <span className="notification-row__text">{notification.description}</span>
        {notification.AdminAnnouncement && (
          <span className="notification-row__quote">{notification.AdminAnnouncement}</span>
        )}
        <time dateTime={notification.createdAt} title={notifiedAt(notification.createdAt)}>
          {whenNotified(notification.createdAt)}
        </time>
      </span>
      {unread && <span className="notification-dot" role="img" aria-label="Unread" />}
    </button>
  );
}
