import {
  Activity,
  Bell,
  Home,
  LogOut,
  Menu,
  Newspaper,
  Settings,
  ShieldCheck,
  UserRound,
  Video,
  X,
} from 'lucide-react';
import { Dialog } from 'radix-ui';
import { useState } from 'react';
import { Link, NavLink } from 'react-router';
import { useAppDispatch, useAppSelector } from '../../app/hooks';
import { logoutRequested } from '../auth/session.slice';
import { selectUnreadCount } from '../notifications/notifications.selectors';
import { NAV_PATHS } from './nav-items';
import './navigation.css';

/**
 * spec 2, phones (below 768 px; CSS hides it above): the bottom bar with Home, Video Matching and a menu button,
 * and the full-screen menu with Video Matching, Settings, Security Center and Log Out (and Notifications, with the
 * unread count, spec 4; and the feed's Feed, Profile and Activity, spec 2 "Other screens"). Loaded for signed-in users.
 */
export function MobileNav() {
  const dispatch = useAppDispatch();
  const unread = useAppSelector(selectUnreadCount);
  const [open, setOpen] = useState(false);

  const close = () => setOpen(false);
  return (
    <nav className="mobile-nav" aria-label="Main">
      <NavLink className="mobile-nav__item" to={NAV_PATHS.home} end>
        <Home aria-hidden="true" />
        <span>Home</span>
      </NavLink>
      <NavLink className="mobile-nav__item" to={NAV_PATHS.videoMatch}>
        <Video aria-hidden="true" />
        <span>Video Matching</span>
      </NavLink>
      <Dialog.Root open={open} onOpenChange={setOpen}>
        <Dialog.Trigger className="mobile-nav__item" aria-label="Menu">
          <Menu aria-hidden="true" />
          <span aria-hidden="true">Menu</span>
        </Dialog.Trigger>
        <Dialog.Portal>
          <Dialog.Content className="mobile-menu" aria-describedby={undefined}>
            <div className="mobile-menu__head">
              <Dialog.Title className="mobile-menu__title">Menu</Dialog.Title>
              <Dialog.Close className="mobile-menu__close" aria-label="Close menu">
                <X aria-hidden="true" />
              </Dialog.Close>
            </div>
            <ul className="mobile-menu__list">
              <li>
                <Link className="mobile-menu__item" to={NAV_PATHS.videoMatch} onClick={close}>
                  <Video aria-hidden="true" /> Video Matching
                </Link>
              </li>
              <li>
                <Link className="mobile-menu__item" to={NAV_PATHS.feed} onClick={close}>
                  <Newspaper aria-hidden="true" /> Feed
                </Link>
              </li>
              <li>
                <Link className="mobile-menu__item" to={NAV_PATHS.profile} onClick={close}>
                  <UserRound aria-hidden="true" /> Profile
                </Link>
              </li>
              <li>
                <Link className="mobile-menu__item" to={NAV_PATHS.activity} onClick={close}>
                  <Activity aria-hidden="true" /> Activity
                </Link>
              </li>
              <li>
                <Link className="mobile-menu__item" to={NAV_PATHS.notifications} onClick={close}>
                  <Bell aria-hidden="true" /> Notifications
                  {unread > 0 && (
                    <span className="mobile-menu__count">
                      {unread > 99 ? '99+' : unread}
                      <span className="visually-hidden"> unread</span>
                    </span>
                  )}
                </Link>
              </li>
              <li>
                <Link className="mobile-menu__item" to={NAV_PATHS.settings} onClick={close}>
                  <Settings aria-hidden="true" /> Settings
                </Link>
              </li>
              <li>
                <Link className="mobile-menu__item" to={NAV_PATHS.securityCenter} onClick={close}>
                  <ShieldCheck aria-hidden="true" /> Security Center
                </Link>
              </li>
              <li>
                <button
                  type="button"
                  className="mobile-menu__item mobile-menu__item--danger"
                  onClick={() => {
                    setOpen(false);
                    dispatch(logoutRequested());
                  }}
                >
                  <LogOut aria-hidden="true" /> Log Out
                </button>
              </li>
            </ul>
          </Dialog.Content>
        </Dialog.Portal>
      </Dialog.Root>
    </nav>
  );
}
