import { randomUUID } from 'node:crypto';
import { Inject } from '@nestjs/common';
import { Command, CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { DomainError } from '../../../platform/cqrs/decider.js';
import type { CommandMetadata } from '../../../platform/cqrs/execute-decider.js';
import { DATABASE, type Db } from '../../../platform/database/database.js';
import { LIMITS, RATE_LIMITS, type RateLimits } from '../../../platform/http/rate-limits.js';
import { Accounts, currentPasswordHash, twoFactorEnabled } from '../../accounts/accounts.js';
import { emailKey } from '../../accounts/email-address.js';
import { IdentityMails } from '../../mail/identity-mails.js';
import { PasswordHasher } from '../../passwords/password-hasher.js';
import { KnownDevices } from '../../sessions/known-devices.js';
import { hashSecret, newCode } from '../../sessions/secrets.js';
import { type Device, type SignedIn, SignIns } from '../../sessions/sign-ins.js';

const LOGIN_CODE_TTL_MS = 10 * 60_000;

export type LogInOutcome = SignedIn | { twoFactorRequired: true; challengeId: string };

export class LogIn extends Command<LogInOutcome> {
  constructor(
    readonly emailAddress: string,
    readonly password: string,
    readonly device: Device,
    readonly meta: CommandMetadata,
  ) {
    super();
  }
}

export const WRONG_CREDENTIALS = 'Wrong e-mail address or password';

/**
 * spec 1 "Accounts", 8: wrong e-mail and wrong password read the same and take the same time (no account enumeration);
 * failures count per account (per known device, see below) and per client address. With two-factor on, a code is mailed
 * and the sign-in waits for it.
 */
@CommandHandler(LogIn)
export class LogInHandler implements ICommandHandler<LogIn> {
  private readonly hasher = new PasswordHasher();

  constructor(
    @Inject(DATABASE) private readonly db: Db,
    @Inject(RATE_LIMITS) private readonly limits: RateLimits,
    private readonly accounts: Accounts,
    private readonly mails: IdentityMails,
    private readonly signIns: SignIns,
    private readonly knownDevices: KnownDevices,
  ) {}

  async execute({ emailAddress, password, device, meta }: LogIn): Promise<LogInOutcome> {
    const key = emailKey(emailAddress);
    const owner = await this.db
      .selectFrom('account_emails')
      .select('user_id')
      .where('email_lower', '=', key)
      .executeTakeFirst();
    // A browser the account signed in from keeps its own count: failures from anywhere else (an attacker) lock out
    // every other client of the account, but not the owner's known device.
    const knownDevice = !!owner && (await this.knownDevices.isKnown(owner.user_id, device.knownDeviceToken));
    const accountKey = knownDevice ? `${key}|device:${hashSecret(device.knownDeviceToken!)}` : key;
    // The per-address count holds for known devices too: a collected device cookie buys no extra guesses from one place.
    const ip = device.ip;
    // Every attempt is counted before the password is checked (one atomic step): parallel guesses cannot all get in
    // before the first failure counts. A right password gives its points back below.
    await this.limits.take(LIMITS.loginFailuresPerAccount, accountKey);
    if (ip) {
      try {
        await this.limits.take(LIMITS.loginFailuresPerIp, ip);
      } catch (error) {
        await this.limits.refund(LIMITS.loginFailuresPerAccount, accountKey);
        throw error;
      }
    }
    const history = owner ? await this.accounts.history(owner.user_id) : [];
    if (!(await this.hasher.verify(currentPasswordHash(history), password)) || !owner) {
      throw new DomainError('wrong-credentials', WRONG_CREDENTIALS, { kind: 'unauthenticated' });
    }
    await this.limits.reset(LIMITS.loginFailuresPerAccount, accountKey);
    if (ip) await this.limits.refund(LIMITS.loginFailuresPerIp, ip);
    if (!twoFactorEnabled(history)) return this.signIns.start(owner.user_id, device, meta, 'password');

    // Each code is a new set of tries: how many an account gets is limited, however often the password is right.
    await this.limits.take(LIMITS.signInCodesPerAccount, owner.user_id);
    const challengeId = randomUUID();
    const code = newCode();
    await this.db
      .insertInto('auth_login_challenges')
      .values({
        challenge_id: challengeId,
        user_id: owner.user_id,
        code_hash: hashSecret(code),
        expires_at: new Date(meta.now.getTime() + LOGIN_CODE_TTL_MS),
        used_at: null,
      })
      .execute();
    // To the address the account holds, not as typed: a look-alike or differently written address is not its mailbox.
    const { emailAddress: stored } = await this.accounts.userInfo(owner.user_id, meta.now);
    await this.mails.signInCode(stored, code);
    return { twoFactorRequired: true, challengeId };
  }
}
