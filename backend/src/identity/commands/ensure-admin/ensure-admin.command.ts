import { randomUUID } from 'node:crypto';
import { Inject } from '@nestjs/common';
import { Command, CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { v5 as uuidv5 } from 'uuid';
import type { CommandMetadata } from '../../../platform/cqrs/execute-decider.js';
import { DATABASE, type Db } from '../../../platform/database/database.js';
import { Accounts, currentPasswordHash, emailConfirmed } from '../../accounts/accounts.js';
import { canonicalEmail, emailKey } from '../../accounts/email-address.js';
import { PasswordHasher } from '../../passwords/password-hasher.js';
import { passwordProblem } from '../../passwords/password-policy.js';

const ADMIN_BOOTSTRAP_NAMESPACE = '0b7d5a62-3c1e-4f0a-9d2b-6e8f1a4c7d30';

/** Answers the admin's user id. */
export class EnsureAdmin extends Command<string> {
  constructor(
    readonly emailAddress: string,
    readonly password: string,
    readonly now: Date,
  ) {
    super();
  }
}

/**
 * ADMIN_EMAIL + ADMIN_PASSWORD at start: the account exists (made and verified if new), is an admin (RoleGranted by
 * `system`) and signs in with a mailed code (TwoFactorEnabled), again at every start; making the account happens once
 * (deterministic command ids). An account that already holds the address becomes admin only if it confirmed the address and its password is ADMIN_PASSWORD:
 * otherwise whoever signed up with the address first (without ever owning the mailbox) would be made an admin.
 */
@CommandHandler(EnsureAdmin)
export class EnsureAdminHandler implements ICommandHandler<EnsureAdmin> {
  private readonly hasher = new PasswordHasher();

  constructor(
    @Inject(DATABASE) private readonly db: Db,
    private readonly accounts: Accounts,
  ) {}

  async execute({ emailAddress, password, now }: EnsureAdmin): Promise<string> {
    const emailLower = emailKey(emailAddress);
    const meta = (step: string): CommandMetadata => ({
      commandId: uuidv5(`admin-bootstrap:${emailLower}:${step}`, ADMIN_BOOTSTRAP_NAMESPACE),
      correlationId: randomUUID(),
      actor: 'system',
      now,
    });
    let owner = await this.db
      .selectFrom('account_emails')
      .select('user_id')
      .where('email_lower', '=', emailLower)
      .executeTakeFirst();
    if (!owner) {
      const problem = passwordProblem(password);
      if (problem) throw new Error(`ADMIN_PASSWORD: ${problem}`);
      const userId = randomUUID();
      await this.db
        .insertInto('account_emails')
        .values({ email_lower: emailLower, user_id: userId, claimed_at: now })
        .execute();
      const passwordHash = await this.hasher.hash(password);
      await this.accounts.run(
        userId,
        { type: 'Register', userId, emailAddress: canonicalEmail(emailAddress), passwordHash },
        meta('register'),
      );
      await this.accounts.run(userId, { type: 'VerifyEmail' }, meta('verify'));
      owner = { user_id: userId };
    } else {
      const history = await this.accounts.history(owner.user_id);
      if (!emailConfirmed(history)) {
        throw new Error(
          'ADMIN_EMAIL: the account holding this address never confirmed it; confirm it (or free the address) first',
        );
      }
      if (!(await this.hasher.verify(currentPasswordHash(history), password))) {
        throw new Error('ADMIN_PASSWORD: it is not the password of the account holding ADMIN_EMAIL');
      }
    }
    // At every start (README): a role taken or two-factor turned off since is given back; when the account already
    // has both, the decider records nothing. So these steps get new ids each time, not the fixed ones above.
    const everyStart = (): CommandMetadata => ({
      commandId: randomUUID(),
      correlationId: randomUUID(),
      actor: 'system',
      now,
    });
    await this.accounts.run(
      owner.user_id,
      { type: 'SetRole', role: 'admin', by: 'system', reason: 'ADMIN_EMAIL at start' },
      everyStart(),
    );
    // The dashboard asks every admin for two-factor login; this one has it from the start.
    await this.accounts.run(owner.user_id, { type: 'EnableTwoFactor' }, everyStart());
    return owner.user_id;
  }
}
