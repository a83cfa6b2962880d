import type { DashUserList, DashUserRow } from '@serendip/proto';
import { ChevronLeft, ChevronRight, Users } from 'lucide-react';
import { useEffect, useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { useAppSelector } from '../../../app/hooks';
import { selectCurrentUser } from '../../../features/auth/session.selectors';
import { countryNameOf } from '../../../shared/country-names';
import { logError } from '../../../shared/log';
import { useDocumentTitle } from '../../../shared/use-document-title';
import { Avatar } from '../../../ui/Avatar';
import { Button } from '../../../ui/Button';
import { Spinner } from '../../../ui/Spinner';
import { DASHBOARD_PATHS } from '../dashboard-paths';
import { dashUsersApi } from './dash-users-api';
import { RoleBadge, StatusBadge, displayName, shortDate } from './user-bits';
import './users.css';

type Load = { state: 'loading' } | { state: 'failed' } | { state: 'loaded'; list: DashUserList };

export const USER_MANAGEMENT_TEXTS = {
  title: 'User Management',
  failed: 'The users could not be loaded.',
  empty: 'No users yet.',
  noMatch: (search: string) => `No user matches “${search}”.`,
} as const;

/**
 * `/dashboard/user-management` (spec 2): every account, newest first, 25 a page; `?search=` comes from the header's
 * search (names and username; e-mail too for admins). A table on a desktop, one card per person on a phone.
 */
export function UserManagementPage() {
  useDocumentTitle(USER_MANAGEMENT_TEXTS.title);
  const isAdmin = useAppSelector(selectCurrentUser)?.role === 'admin';
  const [params, setParams] = useSearchParams();
  const search = params.get('search')?.trim() ?? '';
  const page = Math.max(1, Number(params.get('page')) || 1);
  const [attempt, setAttempt] = useState(0);
  // The answer is kept with the query it answers: a new search or page is loading until its own answer comes.
  const key = `${search}\u0000${page}\u0000${attempt}`;
  const [answer, setAnswer] = useState<{ key: string; load: Load } | null>(null);
  const load: Load = answer?.key === key ? answer.load : { state: 'loading' };

  useEffect(() => {
    const abort = new AbortController();
    dashUsersApi
      .list(search, page, abort.signal)
      .then((list) => setAnswer({ key, load: { state: 'loaded', list } }))
      .catch((error: unknown) => {
        if (abort.signal.aborted) return;
        logError('The user list failed to load', error);
        setAnswer({ key, load: { state: 'failed' } });
      });
    return () => abort.abort();
  }, [search, page, key]);

  const goTo = (next: number) => {
    const query = new URLSearchParams(params);
    query.set('page', String(next));
    setParams(query);
  };

  return (
    <section className="dash-page" aria-labelledby="users-title" aria-busy={load.state === 'loading'}>
      <div className="dash-page__head">
        <h1 id="users-title">{USER_MANAGEMENT_TEXTS.title}</h1>
        {load.state === 'loaded' && (
          <p className="dash-users__count">
            {search
              ? `${load.list.total.toLocaleString('en')} matching “${search}”`
              : `${load.list.total.toLocaleString('en')} ${load.list.total === 1 ? 'user' : 'users'}`}
          </p>
        )}
      </div>
      <div className="dash-card">
        {load.state === 'loading' && <Spinner label="Loading users" />}
        {load.state === 'failed' && (
          <div className="dash-users__notice" role="alert">
            <p>{USER_MANAGEMENT_TEXTS.failed}</p>
            <Button variant="quiet" size="sm" onClick={() => setAttempt((n) => n + 1)}>
              Try again
            </Button>
          </div>
        )}
        {load.state === 'loaded' && load.list.items.length === 0 && (
          <div className="dash-users__notice">
            <Users aria-hidden="true" size={32} />
            <p>{search ? USER_MANAGEMENT_TEXTS.noMatch(search) : USER_MANAGEMENT_TEXTS.empty}</p>
          </div>
        )}
        {load.state === 'loaded' && load.list.items.length > 0 && (
          <>
            <div className="dash-table-wrap">
              <table className="dash-table dash-users__table">
                <thead>
                  <tr>
                    <th scope="col">User</th>
                    <th scope="col">Username</th>
                    {isAdmin && <th scope="col">E-mail</th>}
                    <th scope="col">Country</th>
                    <th scope="col">Role</th>
                    <th scope="col">Status</th>
                    <th scope="col">Registered</th>
                  </tr>
                </thead>
                <tbody>
                  {load.list.items.map((user) => (
                    <UserRow key={user._id} user={user} showEmail={isAdmin} />
                  ))}
                </tbody>
              </table>
            </div>
            <Pager page={load.list.page} totalPages={load.list.totalPages} onPage={goTo} />
          </>
        )}
      </div>
    </section>
  );
}

function UserRow({ user, showEmail }: { user: DashUserRow; showEmail: boolean }) {
  const name = displayName(user);
  return (
    <tr>
      <td data-label="User">
        <Link className="dash-users__person" to={DASHBOARD_PATHS.userDetails(user._id)}>
          <Avatar name={name} src={user.avatar} size="sm" decorative />
          <span>{name}</span>
        </Link>
      </td>
      <td data-label="Username">{user.username ? `@${user.username}` : '—'}</td>
      {showEmail && (
        <td data-label="E-mail" className="dash-users__email">
          {user.emailAddress ?? '—'}
        </td>
      )}
      <td data-label="Country">{user.country ? countryNameOf(user.country) : '—'}</td>
      <td data-label="Role">
        <RoleBadge role={user.role} />
      </td>
      <td data-label="Status">
        <StatusBadge status={user.status} />
      </td>
      <td data-label="Registered">
        <time dateTime={user.registeredAt}>{shortDate(user.registeredAt)}</time>
      </td>
    </tr>
  );
}

/** Previous / next with where one is; used by the user list and the audit trail. */
export function Pager({
  page,
  totalPages,
  onPage,
  label = 'Pages',
}: {
  page: number;
  totalPages: number;
  onPage: (page: number) => void;
  label?: string;
}) {
  if (totalPages <= 1) return null;
  return (
    <nav className="dash-pager" aria-label={label}>
      <Button variant="quiet" size="sm" disabled={page <= 1} onClick={() => onPage(page - 1)}>
        <ChevronLeft aria-hidden="true" size={16} /> Previous
      </Button>
      <span>
        Page {page} of {totalPages}
      </span>
      <Button variant="quiet" size="sm" disabled={page >= totalPages} onClick={() => onPage(page + 1)}>
        Next <ChevronRight aria-hidden="true" size={16} />
      </Button>
    </nav>
  );
}
