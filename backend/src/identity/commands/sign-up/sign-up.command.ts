import { randomUUID } from 'node:crypto';
import { Inject } from '@nestjs/common';
import { Command, CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { invalidField } from '../../../platform/cqrs/decider.js';
import type { CommandMetadata } from '../../../platform/cqrs/execute-decider.js';
import { DATABASE, type Db } from '../../../platform/database/database.js';
import { LIMITS, RATE_LIMITS, type RateLimits } from '../../../platform/http/rate-limits.js';
import { Accounts } from '../../accounts/accounts.js';
import { AddressClaims } from '../../accounts/address-claims.js';
import { BarredAddresses } from '../../accounts/barred-addresses.js';
import { canonicalEmail, emailKey } from '../../accounts/email-address.js';
import { IdentityMails } from '../../mail/identity-mails.js';
import { PasswordHasher } from '../../passwords/password-hasher.js';
import { passwordProblem } from '../../passwords/password-policy.js';
import { type Device, type SignedIn, SignIns } from '../../sessions/sign-ins.js';

export class SignUp extends Command<SignedIn> {
  constructor(
    readonly emailAddress: string,
    readonly password: string,
    readonly device: Device,
    readonly meta: CommandMetadata,
  ) {
    super();
  }
}

/**
 * Sign-up answers alike whether or not the address already has an account (no enumeration, spec 1 "Accounts"):
 * either way a new account is made and signed in. Only an address nobody holds is claimed by it (and gets the
 * verification link); a taken one stays with its owner, who is told by e-mail that someone tried, and the new account
 * can never verify it or log in with it.
 */
@CommandHandler(SignUp)
export class SignUpHandler implements ICommandHandler<SignUp> {
  private readonly hasher = new PasswordHasher();

  constructor(
    @Inject(DATABASE) private readonly db: Db,
    @Inject(RATE_LIMITS) private readonly limits: RateLimits,
    private readonly accounts: Accounts,
    private readonly mails: IdentityMails,
    private readonly signIns: SignIns,
    private readonly claims: AddressClaims,
    private readonly barred: BarredAddresses,
  ) {}

  async execute({ emailAddress: typed, password, device, meta }: SignUp): Promise<SignedIn> {
    if (device.ip) await this.limits.take(LIMITS.signupsPerIp, device.ip);
    const problem = passwordProblem(password);
    if (problem) throw invalidField('password', problem, 'weak-password');
    const emailAddress = canonicalEmail(typed);
    const userId = randomUUID();
    // A permanently banned account's address is never claimed again (ban evasion); the answer does not show it.
    const isBarred = await this.barred.isBarred(emailAddress);
    const claimed = isBarred
      ? undefined
      : await this.db
          .insertInto('account_emails')
          .values({ email_lower: emailKey(emailAddress), user_id: userId, claimed_at: meta.now })
          .onConflict((oc) => oc.doNothing())
          .returning('user_id')
          .executeTakeFirst();
    try {
      const passwordHash = await this.hasher.hash(password);
      await this.accounts.run(userId, { type: 'Register', userId, emailAddress, passwordHash }, meta);
    } catch (error) {
      if (claimed) await this.db.deleteFrom('account_emails').where('user_id', '=', userId).execute();
      throw error;
    }
    // The account exists now: a mail relay that is down must not turn that into an error (the link can be sent again).
    // An address whose holder never confirmed it within a day is open to whoever can: the link goes to the new
    // account, which takes the address over only by following it (verify-email).
    if (isBarred) await this.mails.addressBarred(emailAddress);
    else if (claimed) await this.mails.verification(userId, emailAddress, meta.now);
    else if ((await this.claims.standing(this.db, userId, emailAddress, meta.now)) === 'open')
      await this.mails.verification(userId, emailAddress, meta.now, { takesOver: true });
    else await this.mails.addressInUse(emailAddress);
    return this.signIns.start(userId, device, meta, 'password');
  }
}
