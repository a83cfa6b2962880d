import { randomUUID } from 'node:crypto';
import { Inject } from '@nestjs/common';
import { Command, CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { v5 as uuidv5 } from 'uuid';
import type { CommandMetadata } from '../../../platform/cqrs/execute-decider.js';
import { DATABASE, type Db } from '../../../platform/database/database.js';
import { Accounts } from '../../accounts/accounts.js';
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
 * ADMIN_EMAIL + ADMIN_PASSWORD at start: the account exists (made and verified if new) and is an admin
 * (AdminGranted by `system`). Deterministic command ids make every restart a no-op after the first.
 */
@CommandHandler(EnsureAdmin)
export class EnsureAdminHandler implements ICommandHandler<EnsureAdmin> {
  private readonly hasher = new PasswordHasher();

  constructor(
    @Inject(DATABASE) private readonly db: Db,
    private readonly accounts: Accounts,
  ) {}

  async execute({ emailAddress, password, now }: EnsureAdmin): Promise<string> {
    const emailLower = emailAddress.toLowerCase();
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
      await this.db.insertInto('account_emails').values({ email_lower: emailLower, user_id: userId }).execute();
      const passwordHash = await this.hasher.hash(password);
      await this.accounts.run(userId, { type: 'Register', userId, emailAddress, passwordHash }, meta('register'));
      await this.accounts.run(userId, { type: 'VerifyEmail' }, meta('verify'));
      owner = { user_id: userId };
    }
    await this.accounts.run(owner.user_id, { type: 'GrantAdmin', grantedBy: 'system' }, meta('grant'));
    return owner.user_id;
  }
}
