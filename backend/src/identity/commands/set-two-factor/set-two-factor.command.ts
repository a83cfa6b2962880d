import { Command, CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import type { UserInfo } from '@serendip/proto';
import type { CommandMetadata } from '../../../platform/cqrs/execute-decider.js';
import { Accounts } from '../../accounts/accounts.js';

export class SetTwoFactor extends Command<UserInfo> {
  constructor(
    readonly userId: string,
    readonly enabled: boolean,
    readonly meta: CommandMetadata,
  ) {
    super();
  }
}

/** spec 7 enable-twofac / disable-twofac: from the next login on, a code is mailed (or not). */
@CommandHandler(SetTwoFactor)
export class SetTwoFactorHandler implements ICommandHandler<SetTwoFactor> {
  constructor(private readonly accounts: Accounts) {}

  async execute({ userId, enabled, meta }: SetTwoFactor): Promise<UserInfo> {
    const position = await this.accounts.run(userId, { type: enabled ? 'EnableTwoFactor' : 'DisableTwoFactor' }, meta);
    return this.accounts.userInfoAfter(userId, position, meta.now);
  }
}
