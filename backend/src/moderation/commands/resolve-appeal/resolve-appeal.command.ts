import { Inject } from '@nestjs/common';
import { Command, CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import type { CommandMetadata } from '../../../platform/cqrs/execute-decider.js';
import { DATABASE, type Db } from '../../../platform/database/database.js';
import { bannedUserOf } from '../lift-ban/lift-ban.command.js';
import { Standings } from '../standings.js';

/** An admin decides an appeal (spec 4 "Appeal"): approved lifts the ban and its violation; rejected keeps it. */
export class ResolveAppeal extends Command<void> {
  constructor(
    readonly caseId: string,
    readonly outcome: 'approved' | 'rejected',
    readonly note: string,
    readonly meta: CommandMetadata,
  ) {
    super();
  }
}

@CommandHandler(ResolveAppeal)
export class ResolveAppealHandler implements ICommandHandler<ResolveAppeal> {
  constructor(
    private readonly standings: Standings,
    @Inject(DATABASE) private readonly db: Db,
  ) {}

  async execute({ caseId, outcome, note, meta }: ResolveAppeal): Promise<void> {
    const userId = await bannedUserOf(this.db, caseId);
    await this.standings.run(userId, { type: 'ResolveAppeal', caseId, outcome, note }, meta);
  }
}
