import { useAppSelector } from '../../app/hooks';
import { selectCurrentUser } from '../../features/auth/session.selectors';
import { ComingSoon } from '../../shared/ui/ComingSoon';

/**
 * What /video-match shows until the matching issue replaces it: a signed-in page that proves the session guard.
 * It lives with the auth pages only because the guard is what it is here for.
 */
export function VideoMatchComingSoonPage() {
  const user = useAppSelector(selectCurrentUser);
  return (
    <ComingSoon page="Video Match" title="Video matching is coming soon">
      {user?.firstName ? `${user.firstName}, you're all set.` : "You're all set."} Soon you will pick your preferences
      here and meet someone new, face to face.
    </ComingSoon>
  );
}
