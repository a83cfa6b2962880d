import { createHash, randomUUID } from 'node:crypto';
import { Inject } from '@nestjs/common';
import { Command, CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { type ContentReportRequest, REPORT_REASONS, type ReportSubmitted } from '@serendip/proto';
import { v5 as uuidv5 } from 'uuid';
import { FeedContent } from '../../../feed/public/index.js';
import { UserDirectory } from '../../../identity/public/index.js';
import { DomainError } from '../../../platform/cqrs/decider.js';
import { SubjectForgotten } from '../../../platform/personal-data/personal-data-vault.js';
import { type CommandMetadata, executeDecider } from '../../../platform/cqrs/execute-decider.js';
import { EVENT_CORE, type EventCore } from '../../../platform/event-core/event-core.js';
import { RATE_LIMITS, type RateLimits } from '../../../platform/http/rate-limits.js';
import type { Config } from '../../../config/config.js';
import { CONFIG } from '../../../config/config.token.js';
import { report } from '../../domain/report.decider.js';
import type { EvidenceFile } from '../../domain/report.events.js';
import { toEvidenceImage } from '../upload-screenshot/evidence-image.js';
import { removeReportFile, reportFileName, writeReportFile } from '../upload-screenshot/report-files.js';
import { reportStream } from '../../domain/report.events.js';
import { REPORTS_PER_HOUR } from '../file-report/file-report.command.js';
import { ReportFeed } from '../report-feed.js';

const goneNow = () => new DomainError('no-such-content', 'This no longer exists.', { kind: 'not-found' });

const CONTENT_REPORT_NAMESPACE = '7c2e9a41-3f8b-4d5c-a6e0-1b9d4f7c2a58';

export class FileContentReport extends Command<ReportSubmitted> {
  constructor(
    readonly reporterId: string,
    readonly request: ContentReportRequest,
    readonly meta: CommandMetadata,
  ) {
    super();
  }
}

/**
 * A post, comment or reply reported into the same queue as calls: the feed's record says who wrote it (nobody reports
 * their own), its words are kept with the report, and one person reports one thing once (the report's id follows
 * from the two).
 */
@CommandHandler(FileContentReport)
export class FileContentReportHandler implements ICommandHandler<FileContentReport> {
  constructor(
    @Inject(EVENT_CORE) private readonly core: EventCore,
    @Inject(RATE_LIMITS) private readonly limits: RateLimits,
    private readonly content: FeedContent,
    private readonly feed: ReportFeed,
    private readonly users: UserDirectory,
    @Inject(CONFIG) private readonly config: Config,
  ) {}

  async execute({ reporterId, request, meta }: FileContentReport): Promise<ReportSubmitted> {
    // Counted only once filed: a refused report (gone, already reported) costs the reporter nothing.
    await this.limits.check(REPORTS_PER_HOUR, reporterId);
    const { kind, id, reason } = request;
    const found = await this.content.find(kind, id);
    // Its author deleted the account a moment ago (their things go a moment later): it is gone.
    const live = found && (await this.users.registeredAt(found.authorId)) !== undefined ? found : undefined;
    const reportId = uuidv5(`${kind}:${id}:${reporterId}`, CONTENT_REPORT_NAMESPACE);
    const screenshot = live?.picture ? await this.keepPicture(live.picture) : null;
    const filed = await executeDecider(
      this.core,
      reportStream(reportId),
      report,
      {
        type: 'FileContentReport',
        reportId,
        reporterId,
        content: live && { kind, id, authorId: live.authorId, postId: live.postId, text: live.text },
        screenshot,
        reason,
        severity: request.severity ?? REPORT_REASONS[reason],
        details: request.details ?? '',
      },
      meta,
    ).catch((error: unknown) => {
      // The author was forgotten between the two reads: their words can no longer be kept, nor reported.
      if (error instanceof SubjectForgotten) throw goneNow();
      throw error;
    });
    if (filed.events.length) await this.limits.consume(REPORTS_PER_HOUR, reporterId);
    // Reported already (or refused): the copy kept for it is not needed.
    else if (screenshot) await removeReportFile(this.config.dataDir, screenshot.file);
    if (filed.position) {
      await this.core.projections.caughtUpTo(filed.position, 5_000);
      await this.feed.announce('reportFiled', reportId, meta.commandId);
    }
    return { reportId, message: 'Report submitted successfully' };
  }

  /**
   * A reported post's picture, copied into the evidence store as a call's screenshot is (re-encoded, with its SHA-256):
   * staff see it, every look recorded, after the post is deleted; it goes with its author's account.
   */
  private async keepPicture(picture: Buffer): Promise<EvidenceFile | null> {
    const image = await toEvidenceImage(picture);
    if (!image.ok) return null;
    const file = reportFileName(randomUUID());
    await writeReportFile(this.config.dataDir, file, image.jpeg);
    return { file, sha256: createHash('sha256').update(image.jpeg).digest('hex'), bytes: image.jpeg.length };
  }
}
