import { Inject, Injectable } from '@nestjs/common';
import { invalidField } from '../../platform/cqrs/decider.js';
import { LIMITS, RATE_LIMITS, type RateLimits } from '../../platform/http/rate-limits.js';
import { Accounts, currentPasswordHash } from '../accounts/accounts.js';
import { PasswordHasher } from './password-hasher.js';

/**
 * What changing the account asks first (spec 2 "Account settings dialog"): the current password. Wrong guesses count against
 * the same per-account limit as logins.
 */
@Injectable()
export class CurrentPassword {
  private readonly hasher = new PasswordHasher();

  constructor(
    @Inject(RATE_LIMITS) private readonly limits: RateLimits,
    private readonly accounts: Accounts,
  ) {}

  async check(userId: string, password: string | undefined): Promise<void> {
    // Counted before checking, in one atomic step (parallel guesses cannot slip in); a right one gives it back.
    await this.limits.take(LIMITS.loginFailuresPerAccount, userId);
    const history = await this.accounts.history(userId);
    if (!password || !(await this.hasher.verify(currentPasswordHash(history), password))) {
      throw invalidField('currentPassword', 'the current password is not right', 'wrong-password');
    }
    await this.limits.refund(LIMITS.loginFailuresPerAccount, userId);
  }
}
