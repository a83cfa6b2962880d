import { sql } from 'kysely';
import type { RecordedEvent } from '../../platform/event-store/event-store.js';
import { plain } from '../../platform/personal-data/personal-data-vault.js';
import type { Projection } from '../../platform/projections/projection.js';
import type { ReportEvent } from '../domain/report.events.js';

const HANDLED = new Set<string>([
  'ReportFiled',
  'ContentReportFiled',
  'ReportedContentKept',
  'ServerSnapshotAttached',
  'ReportScreenshotViewed',
  'ReportScreenshotDeleted',
  'ReportResolved',
]);

/** `moderation_reports`: the review queue (open first, oldest first) and each report's evidence and outcome. */
export const reportsProjection: Projection = {
  name: 'moderation.reports',

  canHandle: (event) => HANDLED.has(event.type),

  async apply(trx, recorded: RecordedEvent) {
    const event = recorded as unknown as ReportEvent;
    switch (event.type) {
      case 'ReportFiled': {
        const d = event.data;
        await trx
          .insertInto('moderation_reports')
          .values({
            report_id: d.reportId,
            match_id: d.matchId,
            reporter_id: d.reporterId,
            reported_id: d.reportedId,
            reason: d.reason,
            severity: d.severity,
            details: plain(d.details) ?? '',
            screenshot_file: d.screenshot?.file ?? null,
            screenshot_sha256: d.screenshot?.sha256 ?? null,
            filed_at: d.filedAt,
            // The table's `#`: the next number in order of filing, so a rebuild numbers the reports the same way.
            report_no: sql<number>`(select coalesce(max(report_no), 0) + 1 from moderation_reports)`,
          })
          .onConflict((c) => c.column('report_id').doNothing())
          .execute();
        return;
      }
      case 'ContentReportFiled': {
        const d = event.data;
        await trx
          .insertInto('moderation_reports')
          .values({
            report_id: d.reportId,
            match_id: null,
            reporter_id: d.reporterId,
            reported_id: d.reportedId,
            reason: d.reason,
            severity: d.severity,
            details: plain(d.details) ?? '',
            screenshot_file: d.screenshot?.file ?? null,
            screenshot_sha256: d.screenshot?.sha256 ?? null,
            filed_at: d.filedAt,
            content_kind: d.content.kind,
            content_id: d.content.id,
            content_post_id: d.content.postId,
            report_no: sql<number>`(select coalesce(max(report_no), 0) + 1 from moderation_reports)`,
          })
          .onConflict((c) => c.column('report_id').doNothing())
          .execute();
        return;
      }
      case 'ReportedContentKept':
        await trx
          .updateTable('moderation_reports')
          .set({ content_text: plain(event.data.text) })
          .where('report_id', '=', event.data.reportId)
          .execute();
        return;
      case 'ServerSnapshotAttached':
        await trx
          .updateTable('moderation_reports')
          .set({ snapshot_id: event.data.snapshotId, snapshot_sha256: event.data.sha256 })
          .where('report_id', '=', event.data.reportId)
          .execute();
        return;
      case 'ReportScreenshotViewed':
        return;
      case 'ReportScreenshotDeleted':
        // The checksum stays: the log still says what was there.
        await trx
          .updateTable('moderation_reports')
          .set({ screenshot_file: null })
          .where('report_id', '=', event.data.reportId)
          .execute();
        return;
      case 'ReportResolved': {
        const { reportId, outcome, by, note, caseId } = event.data;
        await trx
          .updateTable('moderation_reports')
          .set({
            status: outcome,
            resolved_at: recorded.metadata.occurredAt,
            resolved_by: by,
            resolution_note: plain(note),
            case_id: caseId,
          })
          .where('report_id', '=', reportId)
          .execute();
        return;
      }
      default: {
        const unknown: never = event;
        throw new Error(`unhandled event ${(unknown as { type: string }).type}`);
      }
    }
  },

  async reset(trx) {
    await sql`truncate moderation_reports`.execute(trx);
  },
};
