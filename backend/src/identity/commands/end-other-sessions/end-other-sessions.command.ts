import { Command, CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import type { CommandMetadata } from '../../../platform/cqrs/execute-decider.js';
import { SignIns } from '../../sessions/sign-ins.js';

/** Answers how many sessions ended. */
export class EndOtherSessions extends Command<number> {
  constructor(
    readonly userId: string,
    /** The caller's own session, which stays. */
    readonly keepSessionId: string,
    readonly meta: CommandMetadata,
  ) {
    super();
  }
}

/** "End all other sessions" of the Security tab, and a password change that asks for it. */
@CommandHandler(EndOtherSessions)
export class EndOtherSessionsHandler implements ICommandHandler<EndOtherSessions> {
  constructor(private readonly signIns: SignIns) {}

  execute({ userId, keepSessionId, meta }: EndOtherSessions): Promise<number> {
    return this.signIns.endAll(userId, 'ended by the user', meta, keepSessionId);
  }
}
