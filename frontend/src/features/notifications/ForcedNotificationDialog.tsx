import type { NotificationView } from '@serendip/proto';
import { useAppDispatch } from '../../app/hooks';
import { logError } from '../../shared/log';
import { notify } from '../../shared/toasts/notify';
import { feedApi } from '../feed/feed-api';
import { failureText, FEED_TEXTS } from '../feed/feed-texts';
import { AnnouncementOverlay } from './AnnouncementOverlay';
import { CommentRemovedModal, type RemovedComment } from './CommentRemovedModal';
import { notificationsActions } from './notifications.slice';

/**
 * A removed comment's text, date and what was found, and the id its appeal names, when the notification carries them
 * (details of kind 'comment-removed': { text, postedAt, categories, removedBy, removedId, postId }; categories hold
 * staff's reason when `removedBy` is 'staff').
 */
function removedComment(details: NotificationView['details']): (RemovedComment & { removedId?: string }) | undefined {
  const text = details?.text;
  const postedAt = details?.postedAt;
  if (typeof text !== 'string' || typeof postedAt !== 'string') return undefined;
  const categories = Array.isArray(details?.categories)
    ? details.categories.filter((c): c is string => typeof c === 'string')
    : [];
  const removedId = typeof details?.removedId === 'string' ? details.removedId : undefined;
  const removedBy = details?.removedBy === 'staff' ? 'staff' : 'filter';
  return { text, postedAt, categories, removedBy, removedId };
}

/** The overlay for one forced-open notification; OK confirms it (spec 4: marked read, removed). */
export function ForcedNotificationDialog({ notification }: { notification: NotificationView }) {
  const dispatch = useAppDispatch();
  const confirm = () => dispatch(notificationsActions.forcedConfirmed(notification._id));
  const comment = notification.kind === 'comment-removed' ? removedComment(notification.details) : undefined;
  if (comment) {
    const appeal = async (explanation: string) => {
      if (!comment.removedId) {
        notify.error(FEED_TEXTS.appealFailed);
        return false;
      }
      try {
        await feedApi.appealRemoval(comment.removedId, explanation);
      } catch (error) {
        logError('Comment appeal failed', error);
        notify.error(failureText(error, FEED_TEXTS.appealFailed));
        return false;
      }
      notify.success(FEED_TEXTS.appealSent);
      // Appealed: the notice has done its work, as with OK.
      confirm();
      return true;
    };
    return <CommentRemovedModal comment={comment} onOk={confirm} onAppeal={appeal} />;
  }
  return (
    <AnnouncementOverlay
      announcement={{
        title: notification.title,
        description: notification.description,
        adminAnnouncement: notification.AdminAnnouncement,
      }}
      onAcknowledge={confirm}
    />
  );
}
