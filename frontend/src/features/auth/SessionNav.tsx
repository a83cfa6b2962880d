import { Link } from 'react-router';
import { useAppDispatch, useAppSelector } from '../../app/hooks';
import { AUTH_ROUTES } from './auth-routes';
import { selectSession } from './session.selectors';
import { logoutRequested } from './session.slice';
import { displayName } from './user-info';
import './session-nav.css';

/**
 * The header's account corner. Signed out: Login and Get Started (spec 2). Signed in: the first name and Logout;
 * the full user menu replaces this in the app-shell issue.
 */
export function SessionNav() {
  const { user, status, signingOut } = useAppSelector(selectSession);
  const dispatch = useAppDispatch();

  // Nothing until the session is known, so a signed-in user never sees "Login" flash first.
  if (status === 'loading' || status === 'refreshing' || signingOut) {
    return <div className="session-nav" aria-hidden="true" />;
  }
  if (!user) {
    return (
      <nav className="session-nav" aria-label="Account">
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
    <nav className="session-nav" aria-label="Account">
      <span className="session-nav__greeting">
        <span className="session-nav__hello">Hi, </span>
        <strong className="session-nav__name">{displayName(user)}</strong>
      </span>
      <button type="button" className="button button--quiet button--small" onClick={() => dispatch(logoutRequested())}>
        Logout
      </button>
    </nav>
  );
}
