import type { AuditActor, DashUserStatus, Role } from '@serendip/proto';
import { Link } from 'react-router';
import { Badge, type BadgeTone } from '../../../ui/Badge';
import { DASHBOARD_PATHS } from '../dashboard-paths';

/** A person's name as the dashboard shows it: first and last, else the username, else what is left of them. */
export function displayName(user: {
  firstName: string | null;
  /** Absent for a moderator (admins only). */
  lastName?: string | null;
  username: string | null;
}): string {
  const full = [user.firstName, user.lastName].filter(Boolean).join(' ');
  return full || (user.username ? `@${user.username}` : 'No name');
}

const ROLE_LABEL: Record<Role, string> = { user: 'User', moderator: 'Moderator', admin: 'Admin' };
const STATUS: Record<DashUserStatus, { label: string; tone: BadgeTone }> = {
  active: { label: 'Active', tone: 'ok' },
  banned: { label: 'Banned', tone: 'danger' },
  deleted: { label: 'Deleted', tone: 'neutral' },
};

export function RoleBadge({ role }: { role: Role }) {
  return <Badge tone={role === 'user' ? 'neutral' : 'accent'}>{ROLE_LABEL[role]}</Badge>;
}

export function StatusBadge({ status }: { status: DashUserStatus }) {
  return <Badge tone={STATUS[status].tone}>{STATUS[status].label}</Badge>;
}

export const shortDate = (iso: string) =>
  new Date(iso).toLocaleDateString(undefined, { year: 'numeric', month: 'short', day: 'numeric' });

export const dateTime = (iso: string) =>
  new Date(iso).toLocaleString(undefined, {
    year: 'numeric',
    month: 'short',
    day: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
  });

/** Actors that are not people, in words: a signed-out request (a sign-up, a login) is made before anyone is known. */
const SYSTEM_ACTORS: Record<string, string> = {
  anonymous: 'a signed-out visitor',
  system: 'Serendip',
  matchmaker: 'the matchmaker',
  cli: 'an operator (command line)',
};

/** Who did something on record: a person links to their page; a process is said in words. */
export function ActorName({ actor }: { actor: AuditActor }) {
  return actor.kind === 'user' ? (
    <Link to={DASHBOARD_PATHS.userDetails(actor._id)}>{actor.firstName ?? 'an erased account'}</Link>
  ) : (
    <>{SYSTEM_ACTORS[actor.name] ?? actor.name}</>
  );
}
