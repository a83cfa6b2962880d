import { Activity, Flag, Gavel, LayoutDashboard, Megaphone, Menu, Search, ShieldCheck, Users, X } from 'lucide-react';
import { type FormEvent, useState, useSyncExternalStore } from 'react';
import { Link, NavLink, Outlet, useLocation, useNavigate } from 'react-router';
import { useAppDispatch, useAppSelector } from '../../app/hooks';
import { logoutRequested } from '../../features/auth/session.slice';
import { selectCurrentUser } from '../../features/auth/session.selectors';
import { BrandMark } from '../../shared/ui/BrandMark';
import { UserMenu } from '../../features/navigation/UserMenu';
import { ACCOUNT_TAB_PARAM } from '../../features/account/account-tabs';
import { Button } from '../../ui/Button';
import { Card, CardDescription, CardHeader } from '../../ui/Card';
import { DASHBOARD_PATHS } from './dashboard-paths';
import { ReviewBell } from './ReviewBell';
import './dashboard.css';

const SECTIONS = [
  { to: DASHBOARD_PATHS.overview, label: 'Overview', icon: LayoutDashboard, end: true },
  { to: DASHBOARD_PATHS.users, label: 'User Management', icon: Users, end: false },
  { to: DASHBOARD_PATHS.reports, label: 'Reports', icon: Flag, end: false },
  { to: DASHBOARD_PATHS.appeals, label: 'Appeals', icon: Gavel, end: false },
  // GET /api/dash/logs is an admin's (spec 6): a moderator is not offered it.
  { to: DASHBOARD_PATHS.serverLogs, label: 'System Log', icon: Activity, end: false, adminOnly: true },
  // POST /api/dash/announcements is an admin's.
  { to: DASHBOARD_PATHS.announcements, label: 'Announcements', icon: Megaphone, end: false, adminOnly: true },
] as const;

/**
 * The admin dashboard's frame (spec 2 "Admin dashboard"): a sidebar (a drawer behind a menu button on a phone) and a
 * header with the user search, the review bell and the admin's avatar menu. Admins and moderators only: the route
 * guard sends everyone else away, and every call it makes is checked again on the server.
 */
export function DashboardLayout() {
  const user = useAppSelector(selectCurrentUser);
  const [drawerOpen, setDrawerOpen] = useState(false);
  // spec 6 Admin: the server refuses every dashboard route until two-factor login is on and this session was started
  // with the mailed code; say which instead of failing.
  const gate = user?.twoFactorEnabled === false ? 'two-factor' : user?.signedInWithCode === false ? 'code' : undefined;
  const gated = gate !== undefined;
  const isAdmin = user?.role === 'admin';
  const sections = SECTIONS.filter((section) => isAdmin || !('adminOnly' in section));
  return (
    <div className="dash">
      <a className="skip-link" href="#dash-main">
        Skip to content
      </a>
      <aside className={drawerOpen ? 'dash__sidebar dash__sidebar--open' : 'dash__sidebar'} aria-label="Dashboard">
        <div className="dash__brand">
          <Link className="brand" to="/" aria-label="Serendip home">
            <BrandMark size={26} />
            <span className="brand__name">Serendip</span>
          </Link>
          <span className="dash__role">{user?.role === 'admin' ? 'Admin' : 'Moderator'}</span>
          <button className="dash__drawer-close" type="button" onClick={() => setDrawerOpen(false)}>
            <X size={20} aria-hidden="true" />
            <span className="visually-hidden">Close menu</span>
          </button>
        </div>
        <nav>
          <ul className="dash__nav">
            {sections.map(({ to, label, icon: Icon, end }) => (
              <li key={to}>
                <NavLink to={to} end={end} className="dash__nav-link" onClick={() => setDrawerOpen(false)}>
                  <Icon size={18} aria-hidden="true" />
                  {label}
                </NavLink>
              </li>
            ))}
          </ul>
        </nav>
      </aside>
      {drawerOpen && <div className="dash__scrim" aria-hidden="true" onClick={() => setDrawerOpen(false)} />}
      <div className="dash__body">
        <header className="dash__header">
          <button className="dash__menu-button" type="button" onClick={() => setDrawerOpen(true)}>
            <Menu size={20} aria-hidden="true" />
            <span className="visually-hidden">Open menu</span>
          </button>
          <UserSearch isAdmin={isAdmin} />
          <div className="dash__header-end">
            {!gated && <ReviewBell />}
            {user && <UserMenu user={user} />}
          </div>
        </header>
        <main id="dash-main" className="dash__main" tabIndex={-1}>
          {gate === 'two-factor' ? <TwoFactorRequired /> : gate === 'code' ? <CodeSessionRequired /> : <Outlet />}
        </main>
      </div>
    </div>
  );
}

/**
 * What the dashboard shows a moderator or admin without two-factor login: why it is needed, and the way to the switch
 * (Settings, Security tab). The user info the switch answers brings the dashboard back.
 */
function TwoFactorRequired() {
  return (
    <div className="dash-page">
      <Card className="dash-gate" role="region" aria-labelledby="dash-gate-title">
        <CardHeader>
          <ShieldCheck size={28} aria-hidden="true" className="dash-gate__icon" />
          {/* The page's one heading: styled as a card title. */}
          <h1 id="dash-gate-title" className="ui-card__title">
            Turn on two-factor login
          </h1>
          <CardDescription>
            The dashboard gives you power over people&apos;s accounts: reports, bans and appeals. So that a stolen
            password alone cannot reach it, staff sign in with a code we e-mail to them as well. Turn on two-factor
            login in your security settings, then come back here.
          </CardDescription>
        </CardHeader>
        <Button asChild>
          <Link to={`/settings?${ACCOUNT_TAB_PARAM}=security`}>Open security settings</Link>
        </Button>
      </Card>
    </div>
  );
}

/**
 * What the dashboard shows staff with two-factor login on whose session was started with the password alone (before
 * they turned it on, or by someone who has only the password): sign out and in again with the mailed code, then back
 * here.
 */
function CodeSessionRequired() {
  const dispatch = useAppDispatch();
  const location = useLocation();
  return (
    <div className="dash-page">
      <Card className="dash-gate" role="region" aria-labelledby="dash-gate-title">
        <CardHeader>
          <ShieldCheck size={28} aria-hidden="true" className="dash-gate__icon" />
          <h1 id="dash-gate-title" className="ui-card__title">
            Sign in again with the code
          </h1>
          <CardDescription>
            Two-factor login is on, but this session was started with your password alone. So that a stolen password
            cannot reach the dashboard, sign in again: we will e-mail you a code, and bring you back here.
          </CardDescription>
        </CardHeader>
        <Button onClick={() => dispatch(logoutRequested({ returnTo: `${location.pathname}${location.search}` }))}>
          Sign in again
        </Button>
      </Card>
    </div>
  );
}

/** Below this width the header's search is too narrow for the long placeholder (375 px phones cut it). */
const NARROW = '(max-width: 600px)';

function subscribeToNarrow(onChange: () => void): () => void {
  if (typeof window.matchMedia !== 'function') return () => undefined;
  const query = window.matchMedia(NARROW);
  query.addEventListener('change', onChange);
  return () => query.removeEventListener('change', onChange);
}
const isNarrow = () => typeof window.matchMedia === 'function' && window.matchMedia(NARROW).matches;

/**
 * The header's search: the user list, searched on the server by name and username, and by e-mail for admins only
 * (UserList); the placeholder says which, and is short on a phone.
 */
function UserSearch({ isAdmin }: { isAdmin: boolean }) {
  const navigate = useNavigate();
  const narrow = useSyncExternalStore(subscribeToNarrow, isNarrow);
  const placeholder = narrow
    ? 'Search users'
    : isAdmin
      ? 'Search users by name, username or e-mail'
      : 'Search users by name or username';
  const [text, setText] = useState('');
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const q = text.trim();
    void navigate(q ? `${DASHBOARD_PATHS.users}?search=${encodeURIComponent(q)}` : DASHBOARD_PATHS.users);
  };
  return (
    <form className="dash__search" role="search" onSubmit={submit}>
      <Search size={16} aria-hidden="true" />
      <label className="visually-hidden" htmlFor="dash-search">
        Search users
      </label>
      <input
        id="dash-search"
        type="search"
        placeholder={placeholder}
        value={text}
        onChange={(e) => setText(e.target.value)}
      />
    </form>
  );
}
