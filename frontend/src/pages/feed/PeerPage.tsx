import type { PeerProfile } from '@serendip/proto';
import { RotateCw } from 'lucide-react';
import { useCallback, useEffect, useState } from 'react';
import { Navigate, useParams } from 'react-router';
import { feedApi } from '../../features/feed/feed-api';
import { FEED_ROUTES } from '../../features/feed/feed-paths';
import { FEED_TEXTS } from '../../features/feed/feed-texts';
import { PostList } from '../../features/feed/PostList';
import { ProfileCard } from '../../features/feed/ProfileCard';
import { useViewer } from '../../features/feed/use-feed-live';
import { usePostList } from '../../features/feed/use-post-list';
import { isHttpError } from '../../shared/http/http-error';
import { logError } from '../../shared/log';
import { useDocumentTitle } from '../../shared/use-document-title';
import { Button } from '../../ui/Button';
import { Spinner } from '../../ui/Spinner';
import '../../features/feed/feed.css';

type PeerState =
  { status: 'loading' } | { status: 'failed' } | { status: 'gone' } | { status: 'loaded'; peer: PeerProfile };

/** `/u/:userId` (spec 2 "peer page"): another person's public profile and their posts; my own id goes to /profile. */
export function PeerPage() {
  const { userId = '' } = useParams();
  const viewer = useViewer();
  if (userId === viewer.userId) return <Navigate to={FEED_ROUTES.profile} replace />;
  // Keyed: another person's page starts afresh.
  return <Peer key={userId} userId={userId} viewerId={viewer.userId} />;
}

function Peer({ userId, viewerId }: { userId: string; viewerId: string }) {
  const [state, setState] = useState<PeerState>({ status: 'loading' });
  const [attempt, setAttempt] = useState(0);
  const load = useCallback((cursor?: string) => feedApi.userPosts(userId, cursor), [userId]);
  const posts = usePostList(load);
  useDocumentTitle(state.status === 'loaded' ? state.peer.firstName : 'Profile');

  useEffect(() => {
    let live = true;
    feedApi.peer(userId).then(
      (peer) => live && setState({ status: 'loaded', peer }),
      (error: unknown) => {
        if (!live) return;
        if (isHttpError(error) && error.status === 404) return setState({ status: 'gone' });
        logError('Peer profile failed to load', error);
        setState({ status: 'failed' });
      },
    );
    return () => {
      live = false;
    };
  }, [userId, attempt]);

  if (state.status === 'loading') return <Spinner className="feed-state" label="Loading the profile" />;
  if (state.status === 'gone') return <p className="feed-state">{FEED_TEXTS.peerGone}</p>;
  if (state.status === 'failed') {
    return (
      <div className="feed-state" role="alert">
        <p>{FEED_TEXTS.peerFailed}</p>
        <Button
          variant="quiet"
          size="sm"
          onClick={() => {
            setState({ status: 'loading' });
            setAttempt((n) => n + 1);
          }}
        >
          <RotateCw aria-hidden="true" /> Try again
        </Button>
      </div>
    );
  }
  const { peer } = state;
  return (
    <section className="feed-page">
      <ProfileCard
        name={peer.firstName}
        avatar={peer.avatar}
        age={peer.age}
        country={peer.country}
        bio={peer.bio}
        isAdmin={peer.isAdmin}
      />
      <h2 className="feed-page__subtitle">Posts</h2>
      <PostList
        posts={posts}
        viewerId={viewerId}
        empty={`${peer.firstName} has not posted anything yet.`}
        label={`${peer.firstName}'s posts, newest first`}
      />
    </section>
  );
}
