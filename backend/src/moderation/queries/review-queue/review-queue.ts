import { Inject, Injectable } from '@nestjs/common';
import { DATABASE, type Db } from '../../../platform/database/database.js';

const REPORTS_PAGE = 100;

/** Reports as admins review them (spec 3 Report "as listed to admins"), with where each picture can be seen. */
@Injectable()
export class ReviewQueue {
  constructor(@Inject(DATABASE) private readonly db: Db) {}

  /** Open reports, oldest first; or, with `all`, every report, newest first. */
  async reports(all: boolean) {
    const query = this.db.selectFrom('moderation_reports').selectAll();
    const rows = await (
      all ? query.orderBy('filed_at', 'desc') : query.where('status', '=', 'open').orderBy('filed_at', 'asc')
    )
      .limit(REPORTS_PAGE)
      .execute();
    return rows.map((r) => ({
      reportId: r.report_id,
      matchId: r.match_id,
      type: 'videosession',
      reason: r.reason,
      severity: r.severity,
      details: r.details,
      reportedByWho: r.reporter_id,
      reportedUser: r.reported_id,
      screenshot: r.screenshot_file ? `/api/admin/reports/${r.report_id}/screenshot` : null,
      screenshotSha256: r.screenshot_sha256,
      snapshot: r.snapshot_id ? `/api/admin/snapshots/${r.snapshot_id}` : null,
      snapshotSha256: r.snapshot_sha256,
      createdAt: new Date(r.filed_at).toISOString(),
      status: r.status,
      caseId: r.case_id,
    }));
  }
}
