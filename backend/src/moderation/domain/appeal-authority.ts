import type { Role } from '@serendip/proto';

/** The longest restriction a moderator may set, and so the longest whose appeal a moderator may decide (spec 6). */
export const MODERATOR_MAX_BAN_DAYS = 30;
const DAY_MS = 86_400_000;

/** What decides who may decide a ban's appeal: its length, who decided it, and whom it is on (roles as of now). */
export interface AppealedBan {
  bannedAt: Date;
  /** null: permanent. */
  expiresAt: Date | null;
  bannedBy: string;
  bannedByRole: Role;
  userRole: Role;
}

/** Who would decide: their id and role. */
export interface AppealDecider {
  id: string;
  role: Role;
}

/**
 * spec 4 "Appeal" and spec 6 Admin: an approved appeal lifts the ban, so a moderator may decide only what a moderator
 * could have decided: a ban of a plain user for up to 30 days, decided by a moderator. A permanent or longer ban, one an
 * admin decided (a moderator does not overrule an admin) and one on a staff member are an admin's to decide
 * ('admin-only'). And the review is impartial: a moderator does not decide the appeal of a ban they decided themselves
 * ('own-ban'), another staff member does; an admin may, as the final authority (a one-admin team must still decide).
 * Why the decider may not, or null.
 */
export function appealBar(decider: AppealDecider, ban: AppealedBan): 'admin-only' | 'own-ban' | null {
  if (decider.role === 'admin') return null;
  if (decider.role !== 'moderator') return 'admin-only';
  const longer =
    ban.expiresAt === null || ban.expiresAt.getTime() - ban.bannedAt.getTime() > MODERATOR_MAX_BAN_DAYS * DAY_MS;
  if (longer || ban.bannedByRole === 'admin' || ban.userRole !== 'user') return 'admin-only';
  return ban.bannedBy === decider.id ? 'own-ban' : null;
}

export const mayDecideAppeal = (decider: AppealDecider, ban: AppealedBan): boolean => appealBar(decider, ban) === null;
