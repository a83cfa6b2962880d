import type { AuditTrailPage, DashBan, DashSession, DashUserDetails, Role } from '@serendip/proto';
import { type FormEvent, useCallback, useEffect, useRef, useState } from 'react';
import { Link, useParams } from 'react-router';
import { useAppSelector } from '../../../app/hooks';
import { selectCurrentUser } from '../../../features/auth/session.selectors';
import { LEVEL_LABEL } from '../../../features/moderation/ban-display';
import { countryNameOf } from '../../../shared/country-names';
import { isHttpError } from '../../../shared/http/http-error';
import { logError } from '../../../shared/log';
import { notify } from '../../../shared/toasts/notify';
import { useDocumentTitle } from '../../../shared/use-document-title';
import {
  Avatar,
  Badge,
  Button,
  Dialog,
  DialogClose,
  DialogContent,
  DialogFooter,
  Input,
  Spinner,
  Textarea,
} from '../../../ui';
import { BanDialog } from '../BanDialog';
import { DASHBOARD_PATHS } from '../dashboard-paths';
import { dashUsersApi } from './dash-users-api';
import { STREAM_HISTORY_TEXTS, StreamHistoryDialog } from './StreamHistoryDialog';
import { Pager } from './UserManagementPage';
import { ActorName, RoleBadge, StatusBadge, dateTime, displayName, shortDate } from './user-bits';
import './users.css';

type Load<T> = { state: 'loading' } | { state: 'failed'; notFound: boolean } | { state: 'loaded'; value: T };

export const USER_DETAILS_TEXTS = {
  title: 'User details',
  failed: 'This user could not be loaded.',
  notFound: 'No such user.',
  trailFailed: 'The audit trail could not be loaded.',
  trailEmpty: 'Nothing on record yet.',
} as const;

/**
 * `/dashboard/user-management/:id/view-details` (spec 2, spec 6 Admin): profile, status, sessions, ban history and
 * report counts; Ban (staff) and Unban and the role (admins); and the person's audit trail, newest first. Opening
 * the page and every page of the trail read are recorded on the server and show in that trail. It shows what the
 * server sends: a moderator gets no last name, birth date, city or sessions, so those rows and that card are absent.
 */
export function UserDetailsPage() {
  const { userId = '' } = useParams();
  const viewer = useAppSelector(selectCurrentUser);
  const isAdmin = viewer?.role === 'admin';
  const [details, setDetails] = useState<Load<DashUserDetails>>({ state: 'loading' });
  const [trailPage, setTrailPage] = useState(1);
  const [trail, setTrail] = useState<Load<AuditTrailPage>>({ state: 'loading' });
  const trailAsOf = useRef<string | null>(null);
  const [version, setVersion] = useState(0);
  const [dialog, setDialog] = useState<'ban' | 'unban' | null>(null);
  const [historyOf, setHistoryOf] = useState<{ stream: string; eventId: string } | null>(null);
  const name = details.state === 'loaded' ? displayName(details.value.profile) : USER_DETAILS_TEXTS.title;
  useDocumentTitle(name);

  useEffect(() => {
    let live = true;
    dashUsersApi.details(userId).then(
      (value) => live && setDetails({ state: 'loaded', value }),
      (error: unknown) => {
        if (!live) return;
        logError('User details failed to load', error);
        setDetails({ state: 'failed', notFound: isHttpError(error) && error.status === 404 });
      },
    );
    return () => {
      live = false;
    };
  }, [userId, version]);

  useEffect(() => {
    let live = true;
    // Page 1 is read as the trail is now; the next pages as of page 1 (every read is recorded, on top of the trail).
    dashUsersApi.auditTrail(userId, trailPage, trailPage === 1 ? null : trailAsOf.current).then(
      (value) => {
        if (!live) return;
        if (trailPage === 1) trailAsOf.current = value.asOf;
        setTrail({ state: 'loaded', value });
      },
      (error: unknown) => {
        if (!live) return;
        logError('Audit trail failed to load', error);
        setTrail({ state: 'failed', notFound: false });
      },
    );
    return () => {
      live = false;
    };
  }, [userId, trailPage, version]);

  const reload = useCallback(() => {
    setDialog(null);
    setVersion((v) => v + 1);
  }, []);

  return (
    <section className="dash-page" aria-labelledby="user-title" aria-busy={details.state === 'loading'}>
      <Link className="dash-user__back" to={DASHBOARD_PATHS.users}>
        ← User Management
      </Link>
      <div className="dash-page__head">
        <h1 id="user-title">{name}</h1>
      </div>
      {details.state === 'loading' && <Spinner label="Loading the user" />}
      {details.state === 'failed' && (
        <div className="dash-card dash-users__notice" role="alert">
          <p>{details.notFound ? USER_DETAILS_TEXTS.notFound : USER_DETAILS_TEXTS.failed}</p>
          {!details.notFound && (
            <Button variant="quiet" size="sm" onClick={() => setVersion((v) => v + 1)}>
              Try again
            </Button>
          )}
        </div>
      )}
      {details.state === 'loaded' && (
        <div className="dash-user__grid">
          <ProfileCard details={details.value} />
          <StatusCard
            details={details.value}
            isAdmin={isAdmin}
            isSelf={viewer?._id === userId}
            onBan={() => setDialog('ban')}
            onUnban={() => setDialog('unban')}
            onRoleChanged={reload}
          />
          {details.value.sessions && <SessionsCard sessions={details.value.sessions} />}
          <BansCard bans={details.value.bans} reports={details.value.reports} />
        </div>
      )}
      <AuditTrailCard trail={trail} onPage={setTrailPage} onHistory={isAdmin ? setHistoryOf : undefined} />
      {historyOf && (
        <StreamHistoryDialog stream={historyOf.stream} eventId={historyOf.eventId} onClose={() => setHistoryOf(null)} />
      )}
      {details.state === 'loaded' && (
        <>
          {dialog === 'ban' && (
            <BanDialog
              target={{ userId, name }}
              open
              onOpenChange={(open) => setDialog(open ? 'ban' : null)}
              onBanned={reload}
            />
          )}
          {details.value.status.currentBan && (
            <UnbanDialog
              ban={details.value.status.currentBan}
              name={name}
              open={dialog === 'unban'}
              onOpenChange={(open) => setDialog(open ? 'unban' : null)}
              onDone={reload}
            />
          )}
        </>
      )}
    </section>
  );
}

function ProfileCard({ details }: { details: DashUserDetails }) {
  const p = details.profile;
  const place = [p.city, p.country ? countryNameOf(p.country) : null].filter(Boolean).join(', ');
  return (
    <article className="dash-card" aria-labelledby="profile-title">
      <h2 id="profile-title" className="dash-user__card-title">
        Profile
      </h2>
      <div className="dash-user__who">
        <Avatar name={displayName(p)} src={p.avatar} size="lg" decorative />
        <div>
          <strong>{displayName(p)}</strong>
          {p.username && <div className="dash-user__muted">@{p.username}</div>}
        </div>
      </div>
      <dl className="dash-user__facts">
        {p.emailAddress !== undefined && (
          <>
            <dt>E-mail</dt>
            <dd>{p.emailAddress}</dd>
          </>
        )}
        {p.phoneNumber && (
          <>
            <dt>Phone</dt>
            <dd>{p.phoneNumber}</dd>
          </>
        )}
        <dt>Gender</dt>
        <dd>{p.gender ? (p.gender === 'female' ? 'Female' : 'Male') : '—'}</dd>
        <dt>Age</dt>
        <dd>{p.age ?? '—'}</dd>
        {/* Admins only: a moderator gets no birth date (nor last name, city or sessions) from the server. */}
        {p.birthDate !== undefined && (
          <>
            <dt>Birth date</dt>
            <dd>{p.birthDate ?? '—'}</dd>
          </>
        )}
        <dt>Location</dt>
        <dd>{place || '—'}</dd>
        <dt>Registered</dt>
        <dd>
          <time dateTime={p.registeredAt}>{shortDate(p.registeredAt)}</time>
        </dd>
        {p.bio && (
          <>
            <dt>Bio</dt>
            <dd>{p.bio}</dd>
          </>
        )}
      </dl>
    </article>
  );
}

function StatusCard({
  details,
  isAdmin,
  isSelf,
  onBan,
  onUnban,
  onRoleChanged,
}: {
  details: DashUserDetails;
  isAdmin: boolean;
  /** Your own page: nobody bans themselves or changes their own role (the server refuses both). */
  isSelf: boolean;
  onBan: () => void;
  onUnban: () => void;
  onRoleChanged: () => void;
}) {
  const s = details.status;
  const deleted = s.status === 'deleted';
  return (
    <article className="dash-card" aria-labelledby="status-title">
      <h2 id="status-title" className="dash-user__card-title">
        Status
      </h2>
      <dl className="dash-user__facts">
        <dt>Status</dt>
        <dd>
          <StatusBadge status={s.status} />
        </dd>
        <dt>Role</dt>
        <dd>
          <RoleBadge role={s.role} />
        </dd>
        <dt>Two-factor login</dt>
        <dd>{s.twoFactorEnabled ? 'On' : 'Off'}</dd>
        <dt>E-mail confirmed</dt>
        <dd>{s.emailVerified ? 'Yes' : 'No'}</dd>
        {s.currentBan && (
          <>
            <dt>Banned</dt>
            <dd>
              {s.currentBan.reason || '—'} ·{' '}
              {s.currentBan.expiresAt ? `until ${dateTime(s.currentBan.expiresAt)}` : 'permanently'}
            </dd>
          </>
        )}
        {s.deletedAt && (
          <>
            <dt>Deleted</dt>
            <dd>
              <time dateTime={s.deletedAt}>{dateTime(s.deletedAt)}</time>
            </dd>
          </>
        )}
      </dl>
      {!deleted && !isSelf && (
        <div className="dash-user__actions">
          {/* Staff are an admin's to ban (the server refuses a moderator). */}
          {!s.currentBan && (isAdmin || s.role === 'user') && (
            <Button variant="danger" size="sm" onClick={onBan}>
              Ban
            </Button>
          )}
          {s.currentBan && isAdmin && (
            <Button variant="quiet" size="sm" onClick={onUnban}>
              Unban
            </Button>
          )}
        </div>
      )}
      {!deleted && !isSelf && isAdmin && (
        <RoleForm
          userId={details.profile._id}
          name={displayName(details.profile)}
          role={s.role}
          twoFactorEnabled={s.twoFactorEnabled}
          onChanged={onRoleChanged}
        />
      )}
    </article>
  );
}

const ROLE_NOUN: Record<Role, string> = { user: 'a user', moderator: 'a moderator', admin: 'an admin' };

/**
 * Admins only (the server checks too): user, moderator or admin, with the reason on record. Staff reach the dashboard
 * only with two-factor login on and a session begun with the mailed code (spec 6 Admin): the admin is told when the
 * new moderator or admin still has it off.
 */
function RoleForm({
  userId,
  name,
  role,
  twoFactorEnabled,
  onChanged,
}: {
  userId: string;
  name: string;
  role: Role;
  twoFactorEnabled: boolean;
  onChanged: () => void;
}) {
  const [next, setNext] = useState<Role>(role);
  const [reason, setReason] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [needsTwoFactor, setNeedsTwoFactor] = useState(false);
  const [sending, setSending] = useState(false);

  async function submit(event: FormEvent) {
    event.preventDefault();
    setError(null);
    if (!reason.trim()) return setError('Say why the role changes.');
    setSending(true);
    try {
      await dashUsersApi.setRole(userId, next, reason.trim());
      setReason('');
      notify.success(`${name} is now ${ROLE_NOUN[next]}.`);
      setNeedsTwoFactor(next !== 'user' && !twoFactorEnabled);
      onChanged();
    } catch (failure) {
      logError('Role change failed', failure);
      setError(isHttpError(failure) ? failure.message : 'The role could not be changed. Try again.');
    } finally {
      setSending(false);
    }
  }

  return (
    <form className="dash-user__form dash-user__actions" onSubmit={submit} noValidate aria-label="Role">
      <label className="dash-user__select">
        <span>Role</span>
        <select value={next} onChange={(e) => setNext(e.target.value as Role)}>
          <option value="user">User</option>
          <option value="moderator">Moderator</option>
          <option value="admin">Admin</option>
        </select>
      </label>
      <Input label="Reason for the role change" value={reason} onChange={(e) => setReason(e.target.value)} />
      {error && (
        <p role="alert" className="dash-user__error">
          {error}
        </p>
      )}
      {needsTwoFactor && (
        <p role="status" className="dash-user__notice">
          {name} must turn on two-factor login and sign in with the code we e-mail before they can use the dashboard.
        </p>
      )}
      <Button type="submit" size="sm" disabled={sending || next === role}>
        {sending ? 'Saving…' : 'Change role'}
      </Button>
    </form>
  );
}

function SessionsCard({ sessions }: { sessions: DashSession[] }) {
  return (
    <article className="dash-card" aria-labelledby="sessions-title">
      <h2 id="sessions-title" className="dash-user__card-title">
        Sessions
      </h2>
      {sessions.length === 0 ? (
        <p className="dash-user__muted">No sessions.</p>
      ) : (
        <ul className="dash-user__list">
          {sessions.map((s) => (
            <li key={s.sessionId} className="dash-user__item">
              <div className="dash-user__item-head">
                <strong>{s.userAgent ?? 'Unknown device'}</strong>
                <Badge tone={s.endedAt ? 'neutral' : 'ok'}>{s.endedAt ? 'Ended' : 'Active'}</Badge>
              </div>
              <span className="dash-user__muted">
                Started {dateTime(s.createdAt)} · last used {dateTime(s.lastUsedAt)}
                {[s.city, s.country].some(Boolean) && ` · ${[s.city, s.country].filter(Boolean).join(', ')}`}
                {s.ip !== undefined && ` · IP ${s.ip ?? 'unknown'}`}
              </span>
            </li>
          ))}
        </ul>
      )}
    </article>
  );
}

const ENDED: Record<NonNullable<DashBan['endedHow']>, string> = {
  expired: 'Expired',
  unbanned: 'Lifted',
  'appeal-approved': 'Appeal approved',
};

function BansCard({ bans, reports }: { bans: DashBan[]; reports: DashUserDetails['reports'] }) {
  return (
    <article className="dash-card" aria-labelledby="bans-title">
      <h2 id="bans-title" className="dash-user__card-title">
        Ban history
      </h2>
      <p className="dash-user__muted">
        Reports filed: {reports.filed} · reports against: {reports.against}
      </p>
      {bans.length === 0 ? (
        <p className="dash-user__muted">No bans.</p>
      ) : (
        <ul className="dash-user__list">
          {bans.map((b) => (
            <li key={b.caseId} className="dash-user__item">
              <div className="dash-user__item-head">
                <strong>{b.reason || '—'}</strong>
                <Badge tone="neutral">{LEVEL_LABEL[b.level]}</Badge>
                <Badge tone={b.endedHow ? 'neutral' : 'danger'}>{b.endedHow ? ENDED[b.endedHow] : 'In force'}</Badge>
                {/* An approved appeal that ended the ban is said once, by the badge before. */}
                {b.appealStatus !== 'none' && b.endedHow !== 'appeal-approved' && (
                  <Badge tone={b.appealStatus === 'pending' ? 'pending' : 'neutral'}>Appeal {b.appealStatus}</Badge>
                )}
              </div>
              <span className="dash-user__muted">
                {dateTime(b.bannedAt)} by {b.bannedBy?.firstName ?? 'someone gone'} ·{' '}
                {b.expiresAt ? `until ${dateTime(b.expiresAt)}` : 'permanent'}
              </span>
              {b.appealExplanation && <span className="dash-user__muted">Appeal: {b.appealExplanation}</span>}
            </li>
          ))}
        </ul>
      )}
    </article>
  );
}

function AuditTrailCard({
  trail,
  onPage,
  onHistory,
}: {
  trail: Load<AuditTrailPage>;
  onPage: (page: number) => void;
  /** Admins: open an entry's whole stream (the server sends admins each entry's stream). */
  onHistory?: (of: { stream: string; eventId: string }) => void;
}) {
  return (
    <article className="dash-card" aria-labelledby="trail-title" aria-busy={trail.state === 'loading'}>
      <h2 id="trail-title" className="dash-user__card-title">
        Audit trail
      </h2>
      <p className="dash-user__muted">Every event about this person, newest first, with who acted and why.</p>
      {trail.state === 'loading' && <Spinner label="Loading the audit trail" />}
      {trail.state === 'failed' && (
        <p role="alert" className="dash-user__error">
          {USER_DETAILS_TEXTS.trailFailed}
        </p>
      )}
      {trail.state === 'loaded' && (
        <>
          {trail.value.subjectErased && (
            <p className="dash-user__muted">This person deleted the account: their personal data is erased.</p>
          )}
          {trail.value.items.length === 0 ? (
            <p className="dash-user__muted">{USER_DETAILS_TEXTS.trailEmpty}</p>
          ) : (
            <ol className="dash-user__list" aria-label="Audit trail events">
              {trail.value.items.map((e) => (
                <li key={e.id} className="dash-user__item">
                  <div className="dash-user__item-head">
                    <strong>{e.type}</strong>
                    <time className="dash-user__muted" dateTime={e.at}>
                      {dateTime(e.at)}
                    </time>
                    {onHistory && e.stream && (
                      <Button
                        variant="quiet"
                        size="sm"
                        className="dash-history__open"
                        aria-label={`${STREAM_HISTORY_TEXTS.open}: ${e.type}, ${dateTime(e.at)}`}
                        onClick={() => onHistory({ stream: e.stream!, eventId: e.id })}
                      >
                        {STREAM_HISTORY_TEXTS.open}
                      </Button>
                    )}
                  </div>
                  <span>
                    by <ActorName actor={e.actor} />
                    {e.reason && <> · reason: {e.reason}</>}
                  </span>
                  {e.summary && <span className="dash-user__muted">{e.summary}</span>}
                </li>
              ))}
            </ol>
          )}
          <Pager
            page={trail.value.page}
            totalPages={trail.value.totalPages}
            onPage={onPage}
            label="Audit trail pages"
          />
        </>
      )}
    </article>
  );
}

function UnbanDialog({
  ban,
  name,
  open,
  onOpenChange,
  onDone,
}: {
  ban: DashBan;
  name: string;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  onDone: () => void;
}) {
  const [reason, setReason] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [sending, setSending] = useState(false);

  async function submit(event: FormEvent) {
    event.preventDefault();
    setError(null);
    if (!reason.trim()) return setError('Say why the ban is lifted.');
    setSending(true);
    try {
      await dashUsersApi.unban(ban.caseId, reason.trim());
      onDone();
    } catch (failure) {
      logError('Unban failed', failure);
      setError(isHttpError(failure) ? failure.message : 'The ban could not be lifted. Try again.');
    } finally {
      setSending(false);
    }
  }

  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent title={`Unban ${name}`} description={`Lifts the ban of ${shortDate(ban.bannedAt)}.`}>
        <form className="dash-user__form" onSubmit={submit} noValidate>
          <Textarea label="Reason" rows={2} value={reason} onChange={(e) => setReason(e.target.value)} />
          {error && (
            <p role="alert" className="dash-user__error">
              {error}
            </p>
          )}
          <DialogFooter>
            <DialogClose asChild>
              <Button variant="quiet" type="button">
                Cancel
              </Button>
            </DialogClose>
            <Button type="submit" disabled={sending}>
              {sending ? 'Lifting…' : 'Unban'}
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}
