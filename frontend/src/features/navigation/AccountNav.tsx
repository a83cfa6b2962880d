import { lazy, Suspense } from 'react';
import { Link } from 'react-router';
import { useAppSelector } from '../../app/hooks';
import { AUTH_ROUTES } from '../auth/auth-routes';
import { selectSession } from '../auth/session.selectors';
import './navigation.css';

// Signed-in navigation is its own chunk: a visitor's first page never downloads the menus (first-visit size budget).
const UserMenu = lazy(() => import('./UserMenu').then((m) => ({ default: m.UserMenu })));
const MobileNav = lazy(() => import('./MobileNav').then((m) => ({ default: m.MobileNav })));

/**
 * The header's account corner (spec 2). Visitors: Login and Get Started. Users: the avatar dropdown on large screens;
 * on a phone the bottom bar has the menu instead (SignedInMobileNav).
 */
export function AccountNav() {
  const { user, status, signingOut } = useAppSelector(selectSession);

  // Nothing until the session is known, so a signed-in user never sees "Login" flash first.
  if (status === 'loading' || status === 'refreshing' || signingOut) {
    return <div className="account-nav" aria-hidden="true" />;
  }
  if (!user) {
    return (
      <nav className="account-nav" aria-label="Account">
        <Link className="button button--quiet button--small" to={AUTH_ROUTES.login}>
          Login
        </Link>
        <Link className="button button--primary button--small" to={AUTH_ROUTES.signup}>
          Get Started
        </Link>
      </nav>
    );
  }
  return (
    <div className="account-nav account-nav--user">
      <Suspense fallback={null}>
        <UserMenu user={user} />
      </Suspense>
    </div>
  );
}

/** spec 2, phones: the bottom bar and full-screen menu of signed-in users (CSS shows it below 768 px only). */
export function SignedInMobileNav() {
  const { user, signingOut } = useAppSelector(selectSession);
  if (!user || signingOut) return null;
  return (
    <Suspense fallback={null}>
      <MobileNav />
    </Suspense>
  );
}
