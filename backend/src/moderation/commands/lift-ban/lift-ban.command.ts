import { Inject } from '@nestjs/common';
import { Command, CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { DomainError } from '../../../platform/cqrs/decider.js';
import type { CommandMetadata } from '../../../platform/cqrs/execute-decider.js';
import { DATABASE, type Db } from '../../../platform/database/database.js';
import { Standings } from '../standings.js';

/** The user a case is about (the case id is what admins name). */
export async function bannedUserOf(db: Db, caseId: string): Promise<string> {
  const row = await db.selectFrom('moderation_bans').select('user_id').where('case_id', '=', caseId).executeTakeFirst();
  if (!row) throw new DomainError('no-such-ban', `No ban with case ${caseId}`, { kind: 'not-found' });
  return row.user_id;
}

/** An admin lifts a ban before its time (UserUnbanned), saying why. */
export class LiftBan extends Command<void> {
  constructor(
    readonly caseId: string,
    readonly reason: string,
    readonly meta: CommandMetadata,
  ) {
    super();
  }
}

@CommandHandler(LiftBan)
export class LiftBanHandler implements ICommandHandler<LiftBan> {
  constructor(
    private readonly standings: Standings,
    @Inject(DATABASE) private readonly db: Db,
  ) {}

  async execute({ caseId, reason, meta }: LiftBan): Promise<void> {
    const userId = await bannedUserOf(this.db, caseId);
    await this.standings.run(userId, { type: 'UnbanUser', caseId, reason }, meta);
  }
}
