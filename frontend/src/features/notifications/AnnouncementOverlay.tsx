import { Megaphone } from 'lucide-react';
import { AlertDialog } from 'radix-ui';
import { ForcedNotice } from './ForcedNotice';

/** spec 3 "Notification": what a forced-open one shows. */
export interface Announcement {
  title: string;
  description: string;
  /** An admin's own words, shown apart from the description. */
  adminAnnouncement?: string;
}

/**
 * spec 2 "Announcement overlay": a forced-open notification replaces the app view until the user has read it.
 * ForcedNotifications shows it; spec 4 "Notifications": `onAcknowledge` marks it read.
 */
export function AnnouncementOverlay({
  announcement,
  onAcknowledge,
}: {
  announcement: Announcement;
  onAcknowledge: () => void;
}) {
  return (
    <ForcedNotice
      title={announcement.title}
      actions={
        <AlertDialog.Action className="button button--primary" onClick={onAcknowledge}>
          OK
        </AlertDialog.Action>
      }
    >
      <AlertDialog.Description className="forced-notice__text">{announcement.description}</AlertDialog.Description>
      {announcement.adminAnnouncement && (
        <figure className="forced-notice__block">
          <figcaption className="forced-notice__block-title">
            <Megaphone aria-hidden="true" size={16} /> Announcement from the Serendip team
          </figcaption>
          <p>{announcement.adminAnnouncement}</p>
        </figure>
      )}
    </ForcedNotice>
  );
}
