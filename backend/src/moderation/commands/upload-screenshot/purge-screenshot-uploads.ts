import { Inject, Injectable, Logger, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import type { Config } from '../../../config/config.js';
import { CONFIG } from '../../../config/config.token.js';
import { DATABASE, type Db } from '../../../platform/database/database.js';
import { removeReportFile } from './report-files.js';
import { PENDING_SCREENSHOT_TTL_MS } from './upload-screenshot.command.js';

const PURGE_EVERY_MS = 10 * 60_000;

/** Screenshots captured for a report that was never sent are deleted after an hour: they show a person. */
@Injectable()
export class PurgeScreenshotUploads implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger(PurgeScreenshotUploads.name);
  private timer: NodeJS.Timeout | undefined;

  constructor(
    @Inject(CONFIG) private readonly config: Config,
    @Inject(DATABASE) private readonly db: Db,
  ) {}

  onApplicationBootstrap() {
    this.timer = setInterval(() => {
      this.purge(new Date()).catch((error: Error) => this.logger.error(`purging screenshots failed: ${error.message}`));
    }, PURGE_EVERY_MS);
    this.timer.unref();
  }

  onApplicationShutdown() {
    clearInterval(this.timer);
  }

  async purge(now: Date): Promise<number> {
    const stale = await this.db
      .deleteFrom('moderation_screenshot_uploads')
      .where('uploaded_at', '<', new Date(now.getTime() - PENDING_SCREENSHOT_TTL_MS))
      .returning('file')
      .execute();
    for (const { file } of stale) await removeReportFile(this.config.dataDir, file);
    return stale.length;
  }
}
