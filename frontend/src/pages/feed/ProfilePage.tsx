import { Settings } from 'lucide-react';
import { useCallback } from 'react';
import { Link } from 'react-router';
import { useAppSelector } from '../../app/hooks';
import { selectCurrentUser } from '../../features/auth/session.selectors';
import { feedApi } from '../../features/feed/feed-api';
import { FEED_ROUTES } from '../../features/feed/feed-paths';
import { FEED_TEXTS } from '../../features/feed/feed-texts';
import { PostList } from '../../features/feed/PostList';
import { ProfileCard } from '../../features/feed/ProfileCard';
import { usePostList } from '../../features/feed/use-post-list';
import { ageOf, profileName } from '../../features/profile/profile-display';
import { useDocumentTitle } from '../../shared/use-document-title';
import '../../features/feed/feed.css';

/** `/profile` (spec 2 "Other screens"): the signed-in user's own page, as others see it, with their posts. */
export function ProfilePage() {
  useDocumentTitle('Profile');
  // The guard shows this page to a signed-in user only.
  const user = useAppSelector(selectCurrentUser)!;
  const load = useCallback((cursor?: string) => feedApi.userPosts(user._id, cursor), [user._id]);
  const posts = usePostList(load);

  return (
    <section className="feed-page">
      <ProfileCard
        // As others see it: the first name only (spec 3 feed author: firstName); the full name is in Settings.
        name={user.firstName?.trim() || profileName(user)}
        avatar={user.avatar}
        age={ageOf(user, new Date())}
        country={user.country}
        bio={user.bio}
        isAdmin={user.isAdmin}
      >
        <p className="feed-profile__links">
          <Link className="button button--quiet button--small" to="/settings/profile">
            <Settings aria-hidden="true" /> Edit in Settings
          </Link>
          <Link className="button button--ghost button--small" to={FEED_ROUTES.activity}>
            Activity
          </Link>
        </p>
      </ProfileCard>
      <h2 className="feed-page__subtitle">Your posts</h2>
      <PostList posts={posts} viewerId={user._id} empty={FEED_TEXTS.emptyOwnPosts} label="Your posts, newest first" />
    </section>
  );
}
