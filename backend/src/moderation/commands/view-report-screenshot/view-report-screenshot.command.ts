import { createHash, randomUUID } from 'node:crypto';
import { Inject } from '@nestjs/common';
import { Command, CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import type { Config } from '../../../config/config.js';
import { CONFIG } from '../../../config/config.token.js';
import { DomainError } from '../../../platform/cqrs/decider.js';
import { type CommandMetadata, executeDecider } from '../../../platform/cqrs/execute-decider.js';
import { DATABASE, type Db } from '../../../platform/database/database.js';
import { EVENT_CORE, type EventCore } from '../../../platform/event-core/event-core.js';
import { report } from '../../domain/report.decider.js';
import { reportStream } from '../../domain/report.events.js';
import { readReportFile } from '../upload-screenshot/report-files.js';

/** An admin looks at a report's screenshot: the JPEG, once it is checked and the look recorded. */
export class ViewReportScreenshot extends Command<Buffer> {
  constructor(
    readonly reportId: string,
    readonly meta: CommandMetadata,
  ) {
    super();
  }
}

/**
 * The reporter's screenshot is shown only if its bytes still hash to the SHA-256 the log recorded, and every look is
 * on the report's record (ReportScreenshotViewed), as matching does for its snapshots.
 */
@CommandHandler(ViewReportScreenshot)
export class ViewReportScreenshotHandler implements ICommandHandler<ViewReportScreenshot> {
  constructor(
    @Inject(CONFIG) private readonly config: Config,
    @Inject(DATABASE) private readonly db: Db,
    @Inject(EVENT_CORE) private readonly core: EventCore,
  ) {}

  async execute({ reportId, meta }: ViewReportScreenshot): Promise<Buffer> {
    const row = await this.db
      .selectFrom('moderation_reports')
      .select(['screenshot_file', 'screenshot_sha256'])
      .where('report_id', '=', reportId)
      .executeTakeFirst();
    if (!row?.screenshot_file) {
      throw new DomainError('no-screenshot', 'No screenshot for this report', { kind: 'not-found' });
    }
    const jpeg = await readReportFile(this.config.dataDir, row.screenshot_file);
    if (createHash('sha256').update(jpeg).digest('hex') !== row.screenshot_sha256) {
      throw new DomainError('screenshot-changed', 'The screenshot does not match its recorded SHA-256', {
        kind: 'not-found',
      });
    }
    // Every look is its own, recorded: an Idempotency-Key must not make a second look a replay.
    await executeDecider(
      this.core,
      reportStream(reportId),
      report,
      { type: 'RecordScreenshotView' },
      {
        ...meta,
        commandId: randomUUID(),
      },
    );
    return jpeg;
  }
}
