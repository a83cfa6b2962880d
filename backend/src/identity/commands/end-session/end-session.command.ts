import { Inject } from '@nestjs/common';
import { Command, CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { DomainError } from '../../../platform/cqrs/decider.js';
import type { CommandMetadata } from '../../../platform/cqrs/execute-decider.js';
import { DATABASE, type Db } from '../../../platform/database/database.js';
import { SignIns } from '../../sessions/sign-ins.js';

export class EndSession extends Command<void> {
  constructor(
    readonly userId: string,
    readonly sessionId: string,
    readonly meta: CommandMetadata,
  ) {
    super();
  }
}

/** "End this session" on the Security tab (spec 2, 7): one of the user's own; another's id reads as unknown. */
@CommandHandler(EndSession)
export class EndSessionHandler implements ICommandHandler<EndSession> {
  constructor(
    @Inject(DATABASE) private readonly db: Db,
    private readonly signIns: SignIns,
  ) {}

  async execute({ userId, sessionId, meta }: EndSession): Promise<void> {
    const owned = await this.db
      .selectFrom('auth_sessions')
      .select('user_id')
      .where('session_id', '=', sessionId)
      .executeTakeFirst();
    if (!owned || owned.user_id !== userId) {
      throw new DomainError('no-such-session', 'No such session', { kind: 'not-found' });
    }
    await this.signIns.end(userId, sessionId, 'ended by the user', meta);
  }
}
