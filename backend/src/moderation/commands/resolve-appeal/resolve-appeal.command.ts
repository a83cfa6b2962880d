import { Inject } from '@nestjs/common';
import { Command, CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { ONLY_ADMINS_DECIDE_APPEAL, OWN_BAN_APPEAL } from '@serendip/proto';
import { UserDirectory } from '../../../identity/public/index.js';
import { DomainError } from '../../../platform/cqrs/decider.js';
import type { CommandMetadata } from '../../../platform/cqrs/execute-decider.js';
import { DATABASE, type Db } from '../../../platform/database/database.js';
import { appealBar } from '../../domain/appeal-authority.js';
import { Standings } from '../standings.js';

/**
 * Staff decide an appeal (spec 4 "Appeal"): approved lifts the ban and its violation; rejected keeps it. A moderator
 * decides only the appeals appealBar leaves them (never that of a ban they decided); the rest are an admin's.
 */
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
    private readonly users: UserDirectory,
    @Inject(DATABASE) private readonly db: Db,
  ) {}

  async execute({ caseId, outcome, note, meta }: ResolveAppeal): Promise<void> {
    const ban = await this.db
      .selectFrom('moderation_bans')
      .select(['user_id', 'banned_by', 'banned_at', 'expires_at'])
      .where('case_id', '=', caseId)
      .executeTakeFirst();
    if (!ban) throw new DomainError('no-such-ban', `No ban with case ${caseId}`, { kind: 'not-found' });
    const [deciderRole, bannedByRole, userRole] = await Promise.all([
      this.users.roleOf(meta.actor),
      this.users.roleOf(ban.banned_by),
      this.users.roleOf(ban.user_id),
    ]);
    const appealed = {
      bannedAt: new Date(ban.banned_at),
      expiresAt: ban.expires_at === null ? null : new Date(ban.expires_at),
      bannedBy: ban.banned_by,
      bannedByRole,
      userRole,
    };
    const bar = appealBar({ id: meta.actor, role: deciderRole }, appealed);
    if (bar === 'admin-only') {
      throw new DomainError('admin-only-appeal', ONLY_ADMINS_DECIDE_APPEAL, { kind: 'forbidden' });
    }
    if (bar === 'own-ban') throw new DomainError('own-ban-appeal', OWN_BAN_APPEAL, { kind: 'forbidden' });
    await this.standings.run(ban.user_id, { type: 'ResolveAppeal', caseId, outcome, note }, meta);
  }
}
