import { createHash, randomUUID } from 'node:crypto';
import { Inject } from '@nestjs/common';
import { Command, CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { MODERATION_PATHS, REPORT_WINDOW_HOURS, type ReportScreenshotUploaded } from '@serendip/proto';
import { CallRecords } from '../../../matching/public/index.js';
import type { Config } from '../../../config/config.js';
import { CONFIG } from '../../../config/config.token.js';
import { DomainError, invalidField } from '../../../platform/cqrs/decider.js';
import { DATABASE, type Db } from '../../../platform/database/database.js';
import { type Limit, RATE_LIMITS, type RateLimits } from '../../../platform/http/rate-limits.js';
import { toEvidenceImage } from './evidence-image.js';
import { reportFileName, writeReportFile } from './report-files.js';

/** A burst of captures for one dialog is a handful; more than this an hour is not reporting. */
const UPLOADS_PER_HOUR: Limit = { name: 'report-screenshots', points: 30, durationSeconds: 3600 };
/** Screenshots uploaded and not yet attached to a report, per user: they are deleted after an hour anyway. */
export const PENDING_SCREENSHOTS_MAX = 10;
export const PENDING_SCREENSHOT_TTL_MS = 3_600_000;

export class UploadScreenshot extends Command<ReportScreenshotUploaded> {
  constructor(
    readonly uploaderId: string,
    readonly bytes: Buffer,
  ) {
    super();
  }
}

/**
 * spec 4 "Screenshot capture": the Report dialog uploads its capture at once (with a percentage) and attaches its id to
 * the report. It is re-encoded and kept under DATA_DIR/evidence, named by id, with its SHA-256; unattached, it is
 * deleted after an hour (PurgeScreenshotUploads).
 */
@CommandHandler(UploadScreenshot)
export class UploadScreenshotHandler implements ICommandHandler<UploadScreenshot> {
  constructor(
    @Inject(CONFIG) private readonly config: Config,
    @Inject(DATABASE) private readonly db: Db,
    @Inject(RATE_LIMITS) private readonly limits: RateLimits,
    private readonly calls: CallRecords,
  ) {}

  async execute({ uploaderId, bytes }: UploadScreenshot): Promise<ReportScreenshotUploaded> {
    await this.limits.take(UPLOADS_PER_HOUR, uploaderId);
    // Only someone who had a call they may still report has a screenshot to send: nobody else makes us decode pictures.
    const since = new Date(Date.now() - REPORT_WINDOW_HOURS * 3_600_000);
    if ((await this.calls.recentCallsOf(uploaderId, since, 1)).length === 0) {
      throw new DomainError('no-call-to-report', 'You have no call to report', { kind: 'forbidden' });
    }
    const pending = await this.db
      .selectFrom('moderation_screenshot_uploads')
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .where('uploader_id', '=', uploaderId)
      .executeTakeFirstOrThrow();
    if (Number(pending.n) >= PENDING_SCREENSHOTS_MAX) {
      throw new DomainError('too-many-screenshots', 'Too many screenshots waiting for a report; try again later', {
        kind: 'too-many',
        retryAfterSeconds: 600,
      });
    }
    const image = await toEvidenceImage(bytes);
    if (!image.ok) throw invalidField('screenshot', image.problem, 'screenshot-invalid');
    const screenshotId = randomUUID();
    const file = reportFileName(screenshotId);
    const sha256 = createHash('sha256').update(image.jpeg).digest('hex');
    await writeReportFile(this.config.dataDir, file, image.jpeg);
    await this.db
      .insertInto('moderation_screenshot_uploads')
      .values({ screenshot_id: screenshotId, uploader_id: uploaderId, file, sha256, bytes: image.jpeg.length })
      .execute();
    return { screenshotId, url: `${MODERATION_PATHS.uploadScreenshot}/${screenshotId}`, sha256 };
  }
}
