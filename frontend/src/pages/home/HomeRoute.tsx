import { Navigate } from 'react-router';
import { useAppSelector } from '../../app/hooks';
import { AUTH_ROUTES } from '../../features/auth/auth-routes';
import { selectSession } from '../../features/auth/session.selectors';
import { needsSignupSteps } from '../../features/auth/user-info';
import { LazyBannedScreen } from '../../features/moderation/LazyBannedScreen';
import { LoadingOverlay } from '../../shared/ui/LoadingOverlay';
import { LandingPage } from './LandingPage';
import { SignedInHome } from './SignedInHome';

/**
 * `/` behind its own, lighter guard (spec 2, 4): it waits for the session like the others, then shows visitors the
 * landing page instead of sending them to login, and signed-in users their home (after the sign-up steps).
 */
export function HomeRoute() {
  const { user, status, signingOut } = useAppSelector(selectSession);
  if (signingOut || status === 'loading') return <LoadingOverlay word="VALIDATING" />;
  if (status === 'refreshing') return <LoadingOverlay word="R-TOKENS" />;
  if (!user) return <LandingPage />;
  // spec 4: the lighter guard checks the banned status too.
  if (user.isBanned) return <LazyBannedScreen user={user} />;
  if (needsSignupSteps(user)) return <Navigate to={AUTH_ROUTES.continueSignup} replace />;
  return <SignedInHome user={user} />;
}
