import { isStaff } from '@serendip/proto';
import { useEffect } from 'react';
import { Navigate, Outlet, useLocation } from 'react-router';
import { useAppDispatch, useAppSelector } from '../../app/hooks';
import { notify } from '../../shared/toasts/notify';
import { LoadingOverlay } from '../../shared/ui/LoadingOverlay';
import { LazyBannedScreen } from '../moderation/LazyBannedScreen';
import { BAN_HISTORY_PATH } from '../moderation/moderation-routes';
import { AUTH_TOASTS } from './auth-messages';
import { AUTH_ROUTES } from './auth-routes';
import { loginPathFor } from './safe-redirect';
import { selectSession } from './session.selectors';
import { navigatedInApp } from './session.slice';
import { needsSignupSteps } from './user-info';

interface RequireSessionProps {
  /** spec 6: admin-only pages (the dashboard, for admins and moderators) send everyone else to / with 'Unauthorized, 404'. */
  adminOnly?: boolean;
}

/**
 * The guard of every signed-in route (spec 4 "Route guard states", spec 6), used as a layout route: it renders the
 * matched page through <Outlet /> only for a user allowed to see it.
 */
export function RequireSession({ adminOnly = false }: RequireSessionProps) {
  const { user, status, signingOut, expired } = useAppSelector(selectSession);
  const location = useLocation();
  const dispatch = useAppDispatch();
  const signedIn = status === 'authenticated';
  const path = location.pathname + location.search;

  // Every guarded page a signed-in user opens checks the session is still there (spec 4 "In-app navigation").
  useEffect(() => {
    if (signedIn) dispatch(navigatedInApp(path));
  }, [signedIn, path, dispatch]);

  // On its way to a full page load of /auth/login: no redirect, no toast, the page is about to go.
  if (signingOut) return <LoadingOverlay />;
  switch (status) {
    case 'loading':
      return <LoadingOverlay word="VALIDATING" />;
    case 'refreshing':
      return <LoadingOverlay word="R-TOKENS" />;
    case 'unauthenticated':
      return (
        <RedirectWithToast
          to={loginPathFor(location)}
          message={expired ? AUTH_TOASTS.sessionExpired : AUTH_TOASTS.unauthorizedLogIn}
        />
      );
    case 'authenticated':
      break;
    default: {
      const unknown: never = status;
      throw new Error(`unknown session status ${String(unknown)}`);
    }
  }
  if (!user) return <RedirectWithToast to={loginPathFor(location)} message={AUTH_TOASTS.unauthorizedLogIn} />;

  // spec 2 "Banned-account screen", spec 6: it replaces every guarded page, admin pages included, but the ban history
  // it links to (View Details) stays reachable.
  if (user.isBanned && location.pathname !== BAN_HISTORY_PATH) return <LazyBannedScreen user={user} />;

  if (adminOnly && !isStaff(user.role)) return <RedirectWithToast to="/" message={AUTH_TOASTS.unauthorizedAdmin} />;
  // spec 4 "Signup gating"; the continue-signup page itself is behind this guard, so it is let through.
  if (needsSignupSteps(user) && location.pathname !== AUTH_ROUTES.continueSignup) {
    // The page they were on their way to comes after the steps (spec 4 leaves it open; losing it sends an admin
    // who signs in for /dashboard home).
    const back = location.pathname === '/' ? '' : `?redirect=${encodeURIComponent(path)}`;
    return <Navigate to={`${AUTH_ROUTES.continueSignup}${back}`} replace />;
  }
  return <Outlet />;
}

function RedirectWithToast({ to, message }: { to: string; message: string }) {
  useEffect(() => {
    notify.error(message);
  }, [message]);
  return <Navigate to={to} replace />;
}
