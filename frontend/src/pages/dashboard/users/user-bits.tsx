import type { DashUserStatus, Role } from '@serendip/proto';
import { Badge, type BadgeTone } from '../../../ui/Badge';

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
