import type { FeedAuthor } from '@serendip/proto';
import { Link } from 'react-router';
import { Avatar } from '../../ui/Avatar';
import { Badge } from '../../ui/Badge';
import { notifiedAt, whenNotified } from '../notifications/notification-time';
import { profilePath } from './feed-paths';

/** Who wrote something and when: avatar and first name linking to their page (mine: /profile), the admin badge. */
export function AuthorLine({
  author,
  viewerId,
  at,
  size = 'md',
}: {
  author: FeedAuthor;
  viewerId: string;
  at: string;
  size?: 'sm' | 'md';
}) {
  const to = profilePath(author._id, viewerId);
  return (
    <div className={`feed-author feed-author--${size}`}>
      <Link to={to} className="feed-author__avatar" tabIndex={-1} aria-hidden="true">
        <Avatar name={author.firstName} src={author.avatar} size={size} decorative />
      </Link>
      <div className="feed-author__text">
        <span className="feed-author__line">
          <Link to={to} className="feed-author__name">
            {author.firstName}
          </Link>
          {/* spec 6: admins are shown with an 'Administrator' badge. */}
          {author.isAdmin && <Badge tone="accent">Administrator</Badge>}
        </span>
        <time className="feed-author__time" dateTime={at} title={notifiedAt(at)}>
          {whenNotified(at)}
        </time>
      </div>
    </div>
  );
}
