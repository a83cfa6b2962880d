/**
 * Identity's public surface (DESIGN.md "Conventions"): the only identity code other contexts may import.
 * Who is calling (SessionResolver, AuthGuard, AdminGuard), the command metadata of a request, and what other contexts
 * may read about a user.
 */
export { type AccessClaims } from '../sessions/access-tokens.js';
export { ACCESS_TOKENS, SessionResolver, type TokenCarrier } from './session-resolver.js';
export {
  AdminGuard,
  StaffGuard,
  AuthGuard,
  type AuthenticatedRequest,
  CommandMeta,
  commandMetaOf,
  ACCOUNT_DELETED,
  LOGGED_OUT_ELSEWHERE,
  SESSION_EXPIRED,
  SIGN_IN_FIRST,
} from './guards.js';
export { type PublicAuthor, type PublicProfile, UserDirectory } from './user-directory.js';
export {
  StaffUserDirectory,
  type StaffSessionRow,
  type StaffUserProfile,
  type StaffUserRow,
} from './staff-user-directory.js';
export { IdentityModule } from './identity-module.js';
export { ACCOUNT_RESTRICTED, AccountStanding, AllowedWhileRestricted } from './account-standing.js';
export { BarredAddresses } from '../accounts/barred-addresses.js';
