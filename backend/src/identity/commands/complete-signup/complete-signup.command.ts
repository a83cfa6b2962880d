import { Inject } from '@nestjs/common';
import { Command, CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import type { UserInfo } from '@serendip/proto';
import { invalidField } from '../../../platform/cqrs/decider.js';
import type { CommandMetadata } from '../../../platform/cqrs/execute-decider.js';
import { DATABASE, type Db } from '../../../platform/database/database.js';
import { Accounts } from '../../accounts/accounts.js';
import type { AccountCommand } from '../../domain/account.decider.js';

export type ProfileToComplete = Omit<Extract<AccountCommand, { type: 'CompleteProfile' }>, 'type'>;

export class CompleteSignup extends Command<UserInfo> {
  constructor(
    readonly userId: string,
    readonly profile: ProfileToComplete,
    readonly meta: CommandMetadata,
  ) {
    super();
  }
}

/** spec 2 /auth/signup/cs (continue signup): names, username, gender, birth date; the decider holds the age rule (spec 1). */
@CommandHandler(CompleteSignup)
export class CompleteSignupHandler implements ICommandHandler<CompleteSignup> {
  constructor(
    @Inject(DATABASE) private readonly db: Db,
    private readonly accounts: Accounts,
  ) {}

  async execute({ userId, profile, meta }: CompleteSignup): Promise<UserInfo> {
    const taken = await this.db
      .selectFrom('users')
      .select('user_id')
      .where((eb) => eb(eb.fn('lower', ['username']), '=', profile.username.toLowerCase()))
      .where('user_id', '!=', userId)
      .executeTakeFirst();
    if (taken) throw invalidField('username', 'this username is taken', 'username-taken');
    const position = await this.accounts.run(userId, { type: 'CompleteProfile', ...profile }, meta);
    return this.accounts.userInfoAfter(userId, position, meta.now);
  }
}
