import { PROFILE_MESSAGES } from '../profile/profile-messages';

/** spec 4, 5, 8: what the account settings tabs say, word for word. */
export const ACCOUNT_MESSAGES = {
  saved: PROFILE_MESSAGES.saved,
  accountFailed: 'An error occurred',
  accountDeleted: 'Account deleted successfully',
  twoFactorFailed: 'Session expired please refresh the page.',
  invalidEmail: 'Invalid email format',
} as const;
