import type { OnlineUser } from '@serendip/proto';
import { Monitor, Smartphone } from 'lucide-react';
import { Link } from 'react-router';
import { useAppSelector } from '../../../app/hooks';
import { DASHBOARD_PATHS } from '../dashboard-paths';
import './online-now.css';

export const ONLINE_NOW_TEXTS = {
  title: 'Online now',
  listName: 'People online now',
  waiting: 'Waiting for the live list…',
  nobody: 'Nobody is online.',
  online: 'Online',
  away: 'Away',
  unnamed: 'Erased account',
  mobile: 'Phone',
  desktop: 'Desktop',
  more: (n: number) => `and ${n.toLocaleString('en')} more`,
} as const;

/**
 * The overview's "Online now" (spec 4 "Presence", spec 7 onlineUsers): everyone with the app open, live from the
 * system socket, which sends the list to admins only; each links to the user's page. Away: every page of theirs is
 * hidden. Shown to admins only (moderators, like users, get just the number).
 */
export function OnlineNow() {
  // The server lists the first ONLINE_USERS_LISTED (by first name) and counts the rest.
  const { users, usersTotal: total } = useAppSelector((state) => state.system.online);
  return (
    <section className="dash-card online-now">
      <h2 className="online-now__title">
        {ONLINE_NOW_TEXTS.title}
        {users && <span className="online-now__count">{total.toLocaleString('en')}</span>}
      </h2>
      {users === null ? (
        <p className="online-now__empty">{ONLINE_NOW_TEXTS.waiting}</p>
      ) : users.length === 0 ? (
        <p className="online-now__empty">{ONLINE_NOW_TEXTS.nobody}</p>
      ) : (
        <>
          <ul className="online-now__list" aria-label={ONLINE_NOW_TEXTS.listName}>
            {users.map((user) => (
              <OnlineNowRow key={user.userId} user={user} />
            ))}
          </ul>
          {total > users.length && <p className="online-now__empty">{ONLINE_NOW_TEXTS.more(total - users.length)}</p>}
        </>
      )}
    </section>
  );
}

function OnlineNowRow({ user }: { user: OnlineUser }) {
  const Device = user.device === 'mobile' ? Smartphone : Monitor;
  const status = user.status === 'away' ? ONLINE_NOW_TEXTS.away : ONLINE_NOW_TEXTS.online;
  return (
    <li className="online-now__row" data-testid={`online-${user.userId}`} data-status={user.status}>
      <span className={`online-now__dot online-now__dot--${user.status}`} aria-hidden="true" />
      <Link className="online-now__name" to={DASHBOARD_PATHS.userDetails(user.userId)}>
        {user.firstName || ONLINE_NOW_TEXTS.unnamed}
      </Link>
      <span className="online-now__device" title={ONLINE_NOW_TEXTS[user.device]}>
        <Device size={16} aria-hidden="true" />
        <span className="online-now__device-label">{ONLINE_NOW_TEXTS[user.device]}</span>
      </span>
      <span className={`online-now__status online-now__status--${user.status}`}>{status}</span>
    </li>
  );
}
