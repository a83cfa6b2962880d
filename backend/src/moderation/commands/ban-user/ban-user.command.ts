import { Inject } from '@nestjs/common';
import { Command, CommandBus, CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import type { ViolationLevel } from '@serendip/proto';
import { v5 as uuidv5 } from 'uuid';
import { UserDirectory } from '../../../identity/public/index.js';
import { DomainError } from '../../../platform/cqrs/decider.js';
import type { CommandMetadata } from '../../../platform/cqrs/execute-decider.js';
import { DATABASE, type Db } from '../../../platform/database/database.js';
import { assertMayReview } from '../../domain/review-authority.js';
import type { Penalty } from '../../domain/standing.decider.js';
import { ResolveReport } from '../resolve-report/resolve-report.command.js';
import { Standings } from '../standings.js';

export class BanUser extends Command<{ caseId: string }> {
  constructor(
    readonly userId: string,
    readonly reason: string,
    readonly level: ViolationLevel,
    readonly penalty: Penalty,
    readonly overrideReason: string | undefined,
    readonly reportId: string | undefined,
    readonly meta: CommandMetadata,
  ) {
    super();
  }
}

/** The longest restriction a moderator may set (spec 6 Admin). */
export const MODERATOR_MAX_BAN_DAYS = 30;
export const ONLY_ADMINS_BAN_LONGER = 'Only an admin may ban for longer than 30 days.';
export const ONLY_ADMINS_BAN_STAFF = 'Only an admin may ban a moderator or an admin.';

const exceedsModeratorLimit = (penalty: Penalty) =>
  penalty.kind === 'permanent' || (penalty.kind === 'restriction' && penalty.days > MODERATOR_MAX_BAN_DAYS);

const CASE_NAMESPACE = 'b7d0e1c4-5a3f-4e2b-9c8d-1f6a2e4b7c90';

/**
 * spec 4 "Ban": an admin or moderator bans an account, following the penalty policy or saying why not (the decider's
 * rules). A report it acts on must be about that account and not filed by the one banning (review-authority), and is
 * marked actioned with the case. The user's screens turn to the banned screen at once (Standings pushes it), and
 * matching ends their call (the UserBanned integration event).
 */
@CommandHandler(BanUser)
export class BanUserHandler implements ICommandHandler<BanUser> {
  constructor(
    private readonly standings: Standings,
    private readonly users: UserDirectory,
    @Inject(DATABASE) private readonly db: Db,
    private readonly commands: CommandBus,
  ) {}

  async execute({ userId, reason, level, penalty, overrideReason, reportId, meta }: BanUser) {
    if (userId === meta.actor) throw new DomainError('ban-self', 'You cannot ban yourself', { kind: 'forbidden' });
    // spec 6 Admin, as moderation teams work: a moderator bans for up to 30 days; longer and permanent bans are an
    // admin's call.
    const actorIsAdmin = (await this.users.roleOf(meta.actor)) === 'admin';
    if (exceedsModeratorLimit(penalty) && !actorIsAdmin) {
      throw new DomainError('admin-only-penalty', ONLY_ADMINS_BAN_LONGER, { kind: 'forbidden' });
    }
    // A moderator cannot take a colleague or an admin off the dashboard: staff are an admin's to ban.
    if (!actorIsAdmin && (await this.users.roleOf(userId)) !== 'user') {
      throw new DomainError('admin-only-target', ONLY_ADMINS_BAN_STAFF, { kind: 'forbidden' });
    }
    if (!(await this.users.userInfo(userId, meta.now))) {
      throw new DomainError('no-such-user', 'No such user', { kind: 'not-found' });
    }
    if (reportId) {
      const report = await this.db
        .selectFrom('moderation_reports')
        .select(['reporter_id', 'reported_id', 'status'])
        .where('report_id', '=', reportId)
        .executeTakeFirst();
      if (!report || report.reported_id !== userId) {
        throw new DomainError('report-not-about-user', 'That report is not about this user', { field: 'reportId' });
      }
      // Acting on a report reviews it: refused before anyone is banned, as the report's own decider would after.
      assertMayReview(meta.actor, { reporterId: report.reporter_id, reportedId: report.reported_id });
      if (report.status !== 'open') {
        throw new DomainError('already-resolved', `That report was already reviewed (${report.status})`, {
          kind: 'conflict',
        });
      }
    }
    // The case id comes from the command's id: a retried request names the same case.
    const caseId = uuidv5(meta.commandId, CASE_NAMESPACE);
    await this.standings.run(
      userId,
      { type: 'BanUser', caseId, userId, reason, level, penalty, overrideReason, reportId: reportId ?? null },
      meta,
    );
    if (reportId) await this.commands.execute(new ResolveReport(reportId, 'actioned', '', caseId, meta));
    return { caseId };
  }
}
