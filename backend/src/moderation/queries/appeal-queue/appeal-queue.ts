import { Inject, Injectable } from '@nestjs/common';
import { DASH_APPEALS_PAGE_SIZE, type DashAppealsPage, type Role, type ViolationLevel } from '@serendip/proto';
import { UserDirectory } from '../../../identity/public/index.js';
import { DATABASE, type Db } from '../../../platform/database/database.js';
import { type AppealDecider, mayDecideAppeal } from '../../domain/appeal-authority.js';
import { personOf, ReportList } from '../report-list/report-list.js';

const iso = (value: Date | string) => new Date(value).toISOString();

/**
 * The appeals queue (spec 4 "Appeal": impartial review): bans still on whose user appealed, oldest appeal first, each
 * with the reports it acted on and their pictures. Only a ban still on can be decided (the standing decider), so one
 * that ended meanwhile leaves the queue. Each says whether the viewer may decide it (the rule ResolveAppeal enforces),
 * so the page offers a moderator no decision the server would refuse.
 */
@Injectable()
export class AppealQueue {
  constructor(
    @Inject(DATABASE) private readonly db: Db,
    private readonly users: UserDirectory,
    private readonly reports: ReportList,
  ) {}

  async page(page: number, viewer: AppealDecider): Promise<DashAppealsPage> {
    const query = this.db
      .selectFrom('moderation_bans')
      .where('appeal_status', '=', 'pending')
      .where('ended_at', 'is', null);
    const [counted, rows] = await Promise.all([
      query.select((eb) => eb.fn.countAll<string>().as('total')).executeTakeFirstOrThrow(),
      query
        .selectAll()
        .orderBy('appealed_at', 'asc')
        .orderBy('case_id', 'asc')
        .limit(DASH_APPEALS_PAGE_SIZE)
        .offset((page - 1) * DASH_APPEALS_PAGE_SIZE)
        .execute(),
    ]);
    const total = Number(counted.total);
    const people = [...new Set(rows.flatMap((r) => [r.user_id, r.banned_by]))];
    const [names, evidence, roles] = await Promise.all([
      this.users.firstNames(people),
      this.reports.ofCases(rows.map((r) => r.case_id)),
      viewer.role === 'admin'
        ? new Map<string, Role>()
        : Promise.all(people.map(async (id) => [id, await this.users.roleOf(id)] as const)).then((r) => new Map(r)),
    ]);
    const roleOf = (id: string): Role => roles.get(id) ?? 'user';
    return {
      items: rows.map((r) => ({
        caseId: r.case_id,
        user: personOf(r.user_id, names),
        reason: r.reason,
        level: r.level as ViolationLevel,
        bannedAt: iso(r.banned_at),
        expiresAt: r.expires_at ? iso(r.expires_at) : null,
        bannedBy: personOf(r.banned_by, names),
        appealExplanation: r.appeal_explanation ?? '',
        appealedAt: iso(r.appealed_at ?? r.banned_at),
        evidence: evidence.get(r.case_id) ?? [],
        canDecide: mayDecideAppeal(viewer, {
          bannedAt: new Date(r.banned_at),
          expiresAt: r.expires_at === null ? null : new Date(r.expires_at),
          bannedBy: r.banned_by,
          bannedByRole: roleOf(r.banned_by),
          userRole: roleOf(r.user_id),
        }),
      })),
      page,
      total,
      totalPages: Math.max(1, Math.ceil(total / DASH_APPEALS_PAGE_SIZE)),
    };
  }
}
