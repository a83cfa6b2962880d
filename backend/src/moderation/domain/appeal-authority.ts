import type { Role } from '@serendip/proto';

/** The longest restriction a moderator may set, and so the longest whose appeal a moderator may decide (spec 6). */
export const MODERATOR_MAX_BAN_DAYS = 30;
const DAY_MS = 86_400_000;

/** What decides who may decide a ban's appeal: its length, who decided it, and whom it is on (roles as of now). */
export interface AppealedBan {
  bannedAt: Date;
  /** null: permanent. */
  expiresAt: Date | null;
  bannedByRole: Role;
  userRole: Role;
}

/**
 * spec 4 "Appeal" and spec 6 Admin: an approved appeal lifts the ban, so a moderator may decide only what a moderator
 * could have decided: a ban of a plain user for up to 30 days, decided by a moderator. A permanent or longer ban, one an
 * admin decided (a moderator does not overrule an admin) and one on a staff member are an admin's to decide.
 */
export function mayDecideAppeal(deciderRole: Role, ban: AppealedBan): boolean {
  if (deciderRole === 'admin') return true;
  if (deciderRole !== 'moderator') return false;
  const longer =
    ban.expiresAt === null || ban.expiresAt.getTime() - ban.bannedAt.getTime() > MODERATOR_MAX_BAN_DAYS * DAY_MS;
  return !longer && ban.bannedByRole !== 'admin' && ban.userRole === 'user';
}
