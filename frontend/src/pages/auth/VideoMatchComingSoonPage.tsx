import { useAppSelector } from '../../app/hooks';
import { selectCurrentUser } from '../../features/auth/session.selectors';
import { useDocumentTitle } from '../../shared/use-document-title';
import './auth-pages.css';

/**
 * What /video-match shows until the matching issue replaces it: a signed-in page that proves the session guard.
 * It lives with the auth pages only because the guard is what it is here for.
 */
export function VideoMatchComingSoonPage() {
  useDocumentTitle('Video Match');
  const user = useAppSelector(selectCurrentUser);
  return (
    <section className="coming-soon" aria-labelledby="video-match-title">
      <h1 id="video-match-title" className="coming-soon__title">
        Video matching is coming soon
      </h1>
      <p className="coming-soon__text">
        {user?.firstName ? `${user.firstName}, you're all set.` : "You're all set."} Soon you will pick your preferences
        here and meet someone new, face to face.
      </p>
    </section>
  );
}
