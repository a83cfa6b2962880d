import { Command, CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import type { CommandMetadata } from '../../../platform/cqrs/execute-decider.js';
import { SignIns } from '../../sessions/sign-ins.js';

export class LogOut extends Command<void> {
  constructor(
    readonly userId: string,
    readonly sessionId: string,
    readonly meta: CommandMetadata,
  ) {
    super();
  }
}

/** spec 4 "Logout": the caller's own session ends (its sockets close too). */
@CommandHandler(LogOut)
export class LogOutHandler implements ICommandHandler<LogOut> {
  constructor(private readonly signIns: SignIns) {}

  async execute({ userId, sessionId, meta }: LogOut): Promise<void> {
    await this.signIns.end(userId, sessionId, 'logout', meta);
  }
}
