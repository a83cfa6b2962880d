import { SetMetadata } from '@nestjs/common';

/**
 * Whether an account is under a ban now (spec 4 "Ban"). Moderation keeps the bans and provides this; identity asks it
 * on every signed-in request and in the user's own info (`isBanned`), so identity never reads moderation's tables.
 */
export abstract class AccountStanding {
  abstract isRestricted(userId: string, now: Date): Promise<boolean>;
}

/** What a banned user hears from a route the banned screen does not need (403). */
export const ACCOUNT_RESTRICTED = 'Your account is restricted.';

export const ALLOWED_WHILE_RESTRICTED = 'serendip:allowed-while-restricted';

/**
 * A route a banned user may still call (spec 2 "Banned-account screen", 6 "Banned user"): what the banned screen shows
 * and does (user info, ban info, the appeal, the ban history), signing out, their sessions, and deleting the account.
 * Every other signed-in route answers them 403.
 */
export const AllowedWhileRestricted = () => SetMetadata(ALLOWED_WHILE_RESTRICTED, true);
