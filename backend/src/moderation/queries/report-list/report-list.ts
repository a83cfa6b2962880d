import { Inject, Injectable } from '@nestjs/common';
import {
  DASH_REPORTS_PAGE_SIZE,
  type DashPerson,
  type DashReport,
  type ReportReason,
  type ReportSeverity,
  type ReportStatus,
} from '@serendip/proto';
import type { Selectable } from 'kysely';
import { UserDirectory } from '../../../identity/public/index.js';
import { DATABASE, type Db } from '../../../platform/database/database.js';
import type { ModerationReportsTable } from '../../../platform/database/schema.js';
import { reviewBar } from '../../domain/review-authority.js';

type ReportRow = Selectable<ModerationReportsTable>;

export interface ReportFilter {
  page: number;
  status: ReportStatus | 'all';
  severity?: ReportSeverity;
  reason?: ReportReason;
}

export interface ReportPage {
  items: DashReport[];
  total: number;
  totalPages: number;
}

/**
 * The dashboard's report table (spec 2 "Reports page", spec 3 Report "as listed to admins"): newest first, filtered
 * and paged in SQL over the indexes of migration 0021; names from identity's read model at read time, one query a
 * page. The pictures are the staff routes that record every look (the reporter's screenshot, the server's frame).
 */
@Injectable()
export class ReportList {
  constructor(
    @Inject(DATABASE) private readonly db: Db,
    private readonly users: UserDirectory,
  ) {}

  /** `viewerId`: each row says whether they may review it (the rule the report's decider enforces). */
  async page({ page, status, severity, reason }: ReportFilter, viewerId: string): Promise<ReportPage> {
    let query = this.db.selectFrom('moderation_reports');
    if (status !== 'all') query = query.where('status', '=', status);
    if (severity) query = query.where('severity', '=', severity);
    if (reason) query = query.where('reason', '=', reason);
    const [counted, rows] = await Promise.all([
      query.select((eb) => eb.fn.countAll<string>().as('total')).executeTakeFirstOrThrow(),
      query
        .selectAll()
        .orderBy('filed_at', 'desc')
        .orderBy('report_no', 'desc')
        .limit(DASH_REPORTS_PAGE_SIZE)
        .offset((page - 1) * DASH_REPORTS_PAGE_SIZE)
        .execute(),
    ]);
    const total = Number(counted.total);
    return {
      items: (await this.listed(rows)).map((r) => ({
        ...r,
        canReview: reviewBar(viewerId, { reporterId: r.reportedByWho._id, reportedId: r.reportedUser._id }) === null,
      })),
      total,
      totalPages: Math.max(1, Math.ceil(total / DASH_REPORTS_PAGE_SIZE)),
    };
  }

  /** One report as the table lists it (the live pushes carry this); undefined for an unknown id. */
  async one(reportId: string): Promise<DashReport | undefined> {
    const row = await this.db
      .selectFrom('moderation_reports')
      .selectAll()
      .where('report_id', '=', reportId)
      .executeTakeFirst();
    return row ? (await this.listed([row]))[0] : undefined;
  }

  /** The reports a ban's case acted on (its evidence), oldest first, for several cases at once. */
  async ofCases(caseIds: string[]): Promise<Map<string, DashReport[]>> {
    const byCase = new Map<string, DashReport[]>(caseIds.map((id) => [id, []]));
    if (caseIds.length === 0) return byCase;
    const rows = await this.db
      .selectFrom('moderation_reports')
      .selectAll()
      .where('case_id', 'in', caseIds)
      .orderBy('filed_at', 'asc')
      .execute();
    const listed = await this.listed(rows);
    rows.forEach((row, i) => byCase.get(row.case_id!)?.push(listed[i]!));
    return byCase;
  }

  /** Rows as listed, naming everyone in them with one query. */
  async listed(rows: ReportRow[]): Promise<DashReport[]> {
    const names = await this.users.firstNames(rows.flatMap((r) => [r.reporter_id, r.reported_id]));
    return rows.map((r) => ({
      _id: r.report_id,
      number: r.report_no ?? 0,
      type: r.content_kind ?? 'videosession',
      ...(r.content_kind && r.content_id && r.content_post_id
        ? {
            content: {
              postId: r.content_post_id,
              id: r.content_id,
              ...(r.content_text !== null ? { text: r.content_text } : {}),
            },
          }
        : {}),
      reason: r.reason as ReportReason,
      severity: r.severity as ReportSeverity,
      reportedByWho: personOf(r.reporter_id, names),
      reportedUser: personOf(r.reported_id, names),
      ...(r.screenshot_file ? { screenshot: `/api/admin/reports/${r.report_id}/screenshot` } : {}),
      ...(r.snapshot_id ? { serverSnapshot: `/api/admin/snapshots/${r.snapshot_id}` } : {}),
      createdAt: new Date(r.filed_at).toISOString(),
      status: r.status,
      caseId: r.case_id,
      ...(r.details ? { details: r.details } : {}),
    }));
  }
}

/** A deleted account is named as erased, never guessed at. */
export function personOf(userId: string, names: Map<string, string | null>): DashPerson {
  return names.has(userId)
    ? { _id: userId, firstName: names.get(userId) ?? null }
    : { _id: userId, firstName: null, erased: true };
}
