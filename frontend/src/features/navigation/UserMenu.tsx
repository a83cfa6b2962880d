import type { UserInfo } from '@serendip/proto';
import { isStaff } from '@serendip/proto';
import {
  Activity,
  ChevronDown,
  LayoutDashboard,
  LogOut,
  Newspaper,
  Settings,
  ShieldCheck,
  UserRound,
} from 'lucide-react';
import { Link, NavLink } from 'react-router';
import { useAppDispatch } from '../../app/hooks';
// Straight from the component files: the ui barrel would bring every component's CSS into this chunk.
import { Avatar } from '../../ui/Avatar';
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuLabel,
  DropdownMenuSeparator,
  DropdownMenuTrigger,
} from '../../ui/DropdownMenu';
import { logoutRequested } from '../auth/session.slice';
import { displayName } from '../auth/user-info';
import { NAV_PATHS } from './nav-items';

/**
 * spec 2 "User menu": greeting with first name, Dashboard (admins only), Settings, Security Center, Logout; and the
 * feed's pages (spec 2 "Other screens"): Feed, Profile, Activity. Beside it on large screens, a Feed link.
 */
export function UserMenu({ user }: { user: UserInfo }) {
  const dispatch = useAppDispatch();
  const name = displayName(user);
  const fullName = [user.firstName, user.lastName].filter(Boolean).join(' ') || name;
  return (
    <>
      <NavLink className="account-nav__link" to={NAV_PATHS.feed}>
        Feed
      </NavLink>
      <DropdownMenu modal={false}>
        <DropdownMenuTrigger className="user-menu__trigger">
          {/* Named by text, not aria-label: a label that leaves out the visible initials trips WCAG 2.5.3. */}
          <span className="visually-hidden">Account menu for {name}</span>
          <Avatar name={fullName} size="sm" decorative />
          <ChevronDown aria-hidden="true" size={16} />
        </DropdownMenuTrigger>
        <DropdownMenuContent>
          <DropdownMenuLabel>
            Hi, <strong>{name}</strong>
          </DropdownMenuLabel>
          <DropdownMenuSeparator />
          {isStaff(user.role) && (
            <DropdownMenuItem asChild icon={<LayoutDashboard size={18} />}>
              <Link to={NAV_PATHS.dashboard}>Dashboard</Link>
            </DropdownMenuItem>
          )}
          <DropdownMenuItem asChild icon={<Newspaper size={18} />}>
            <Link to={NAV_PATHS.feed}>Feed</Link>
          </DropdownMenuItem>
          <DropdownMenuItem asChild icon={<UserRound size={18} />}>
            <Link to={NAV_PATHS.profile}>Profile</Link>
          </DropdownMenuItem>
          <DropdownMenuItem asChild icon={<Activity size={18} />}>
            <Link to={NAV_PATHS.activity}>Activity</Link>
          </DropdownMenuItem>
          <DropdownMenuSeparator />
          <DropdownMenuItem asChild icon={<Settings size={18} />}>
            <Link to={NAV_PATHS.settings}>Settings</Link>
          </DropdownMenuItem>
          <DropdownMenuItem asChild icon={<ShieldCheck size={18} />}>
            <Link to={NAV_PATHS.securityCenter}>Security Center</Link>
          </DropdownMenuItem>
          <DropdownMenuSeparator />
          <DropdownMenuItem tone="danger" icon={<LogOut size={18} />} onSelect={() => dispatch(logoutRequested())}>
            Logout
          </DropdownMenuItem>
        </DropdownMenuContent>
      </DropdownMenu>
    </>
  );
}
