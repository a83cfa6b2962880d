import { Inject } from '@nestjs/common';
import { Command, CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { DomainError } from '../../../platform/cqrs/decider.js';
import type { CommandMetadata } from '../../../platform/cqrs/execute-decider.js';
import { DATABASE, type Db } from '../../../platform/database/database.js';
import { Standings } from '../standings.js';

/** spec 7 PUT /user/appeal-ban/{id}: the banned user's one appeal of the ban they are under. */
export class AppealBan extends Command<void> {
  constructor(
    readonly userId: string,
    readonly explanation: string,
    readonly meta: CommandMetadata,
  ) {
    super();
  }
}

@CommandHandler(AppealBan)
export class AppealBanHandler implements ICommandHandler<AppealBan> {
  constructor(
    private readonly standings: Standings,
    @Inject(DATABASE) private readonly db: Db,
  ) {}

  async execute({ userId, explanation, meta }: AppealBan): Promise<void> {
    const ban = await this.db
      .selectFrom('moderation_bans')
      .select('case_id')
      .where('user_id', '=', userId)
      .where('ended_at', 'is', null)
      .orderBy('banned_at', 'desc')
      .executeTakeFirst();
    if (!ban) throw new DomainError('not-banned', 'There is no ban on this account to appeal', { kind: 'not-found' });
    await this.standings.run(userId, { type: 'AppealBan', caseId: ban.case_id, explanation }, meta);
  }
}
