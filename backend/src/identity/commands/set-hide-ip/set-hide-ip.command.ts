import { Command, CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import type { UserInfo } from '@serendip/proto';
import type { CommandMetadata } from '../../../platform/cqrs/execute-decider.js';
import { Accounts } from '../../accounts/accounts.js';

export class SetHideIp extends Command<UserInfo> {
  constructor(
    readonly userId: string,
    readonly hideIp: boolean,
    readonly meta: CommandMetadata,
  ) {
    super();
  }
}

/** "Hide my IP address" (Security settings): from the next call on, this user's calls go through the SFU. */
@CommandHandler(SetHideIp)
export class SetHideIpHandler implements ICommandHandler<SetHideIp> {
  constructor(private readonly accounts: Accounts) {}

  async execute({ userId, hideIp, meta }: SetHideIp): Promise<UserInfo> {
    const position = await this.accounts.run(userId, { type: 'SetHideIp', hideIp }, meta);
    return this.accounts.userInfoAfter(userId, position, meta.now);
  }
}
