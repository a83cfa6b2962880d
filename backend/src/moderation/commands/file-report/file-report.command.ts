import { Inject, Logger } from '@nestjs/common';
import { Command, CommandBus, CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import type { ReportReason, ReportSeverity, ReportSubmitted } from '@serendip/proto';
import { v5 as uuidv5 } from 'uuid';
import { CallRecords, HoldEvidence, TakeSnapshot } from '../../../matching/public/index.js';
import { DomainError } from '../../../platform/cqrs/decider.js';
import { type CommandMetadata, executeDecider } from '../../../platform/cqrs/execute-decider.js';
import { DATABASE, type Db } from '../../../platform/database/database.js';
import { EVENT_CORE, type EventCore } from '../../../platform/event-core/event-core.js';
import type { Position } from '../../../platform/event-store/event-store.js';
import { type Limit, RATE_LIMITS, type RateLimits } from '../../../platform/http/rate-limits.js';
import { report } from '../../domain/report.decider.js';
import { type EvidenceFile, reportStream } from '../../domain/report.events.js';
import { isUuid } from '../../../platform/shared/ids.js';
import { ReportFeed } from '../report-feed.js';

/** Reporting is two clicks; more than this an hour is not what it is for. */
export const REPORTS_PER_HOUR: Limit = { name: 'reports-filed', points: 10, durationSeconds: 3600 };
const REPORT_NAMESPACE = '0b4f3a9e-7c21-4d6b-8e15-a2c9f0d3b781';

export class FileReport extends Command<ReportSubmitted> {
  constructor(
    readonly reporterId: string,
    readonly matchId: string,
    readonly reason: ReportReason,
    readonly severity: ReportSeverity,
    readonly details: string,
    readonly screenshotId: string | undefined,
    readonly meta: CommandMetadata,
  ) {
    super();
  }
}

/**
 * spec 7 POST /report/submit-report: the reporter is the signed-in user; the report names the call, and matching's
 * record of it says who was reported (the decider's rules: a party of the call, within 24 hours, once). The reporter's
 * screenshot is attached by its upload id; in a relayed call the server also takes its own frame of the reported side
 * at once, which the reporter cannot forge, and holds it while the report is open.
 */
@CommandHandler(FileReport)
export class FileReportHandler implements ICommandHandler<FileReport> {
  private readonly logger = new Logger(FileReportHandler.name);

  constructor(
    @Inject(EVENT_CORE) private readonly core: EventCore,
    @Inject(DATABASE) private readonly db: Db,
    @Inject(RATE_LIMITS) private readonly limits: RateLimits,
    private readonly calls: CallRecords,
    private readonly commands: CommandBus,
    private readonly feed: ReportFeed,
  ) {}

  async execute(command: FileReport): Promise<ReportSubmitted> {
    const { reporterId, matchId, reason, severity, details, screenshotId, meta } = command;
    await this.limits.take(REPORTS_PER_HOUR, reporterId);
    const call = await this.calls.partiesOf(matchId);
    // Whose call it is comes first: an outsider learns nothing, not even whether a screenshot id exists.
    const party = call?.userIds.includes(reporterId) ?? false;
    const screenshot = screenshotId && party ? await this.pendingScreenshot(reporterId, screenshotId) : null;
    // One report per reporter and call: its id (and stream) follow from the two.
    const reportId = uuidv5(`${matchId}:${reporterId}`, REPORT_NAMESPACE);
    const filed = await executeDecider(
      this.core,
      reportStream(reportId),
      report,
      { type: 'FileReport', reportId, reporterId, call, reason, severity, details, screenshot },
      meta,
    );
    if (screenshotId) {
      await this.db.deleteFrom('moderation_screenshot_uploads').where('screenshot_id', '=', screenshotId).execute();
    }
    const reported = filed.events[0]?.type === 'ReportFiled' ? filed.events[0].data.reportedId : undefined;
    const attached =
      reported && call && !call.endedAt
        ? await this.takeServerSnapshot(reportId, call.matchId, reported, meta)
        : undefined;
    if (filed.position) {
      // The snapshot's event comes after the report's: waiting for it means the read model has both.
      await this.core.projections.caughtUpTo(attached ?? filed.position, 5_000);
      // With its server snapshot, if there is one: the staff's table shows both pictures at once.
      await this.feed.announce('reportFiled', reportId, meta.commandId);
    }
    return { reportId, message: 'Report submitted successfully' };
  }

  private async pendingScreenshot(uploaderId: string, screenshotId: string): Promise<EvidenceFile> {
    const upload = isUuid(screenshotId)
      ? await this.db
          .selectFrom('moderation_screenshot_uploads')
          .select(['file', 'sha256', 'bytes'])
          .where('screenshot_id', '=', screenshotId)
          .where('uploader_id', '=', uploaderId)
          .executeTakeFirst()
      : undefined;
    if (!upload) {
      throw new DomainError('no-such-screenshot', 'screenshot: no such upload of yours; capture it again', {
        field: 'screenshot',
      });
    }
    return upload;
  }

  /**
   * The SFU's own frame of the reported side, when the call is relayed (opening the Report dialog moves a peer-to-peer
   * call there). A call that is not relayed, or an SFU that cannot answer, leaves the report with the reporter's
   * screenshot only: the report itself is never refused for it.
   */
  private async takeServerSnapshot(
    reportId: string,
    matchId: string,
    reportedId: string,
    meta: CommandMetadata,
  ): Promise<Position | undefined> {
    try {
      const snapshot = await this.commands.execute(
        new TakeSnapshot(reportedId, meta.actor, { reportId, matchId }, meta.now),
      );
      const attached = await executeDecider(
        this.core,
        reportStream(reportId),
        report,
        { type: 'AttachServerSnapshot', snapshotId: snapshot.snapshotId, sha256: snapshot.sha256 },
        { ...meta, commandId: uuidv5(`${meta.commandId}:snapshot`, REPORT_NAMESPACE) },
      );
      await this.commands.execute(new HoldEvidence(snapshot.snapshotId, reportId, meta.actor, meta.now));
      return attached.position;
    } catch (error) {
      const why = error instanceof DomainError ? error.code : (error as Error).message;
      this.logger.log(`report ${reportId}: no server snapshot (${why})`);
      return undefined;
    }
  }
}
