import { Inject } from '@nestjs/common';
import { Command, CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import type { Config } from '../../../config/config.js';
import { CONFIG } from '../../../config/config.token.js';
import { DATABASE, type Db } from '../../../platform/database/database.js';

const DAY_MS = 24 * 60 * 60_000;

/**
 * Deletes the System Log's lines older than LOG_RETENTION_DAYS at `now`; answers how many. The lines are an
 * operational copy of stdout, not events: nothing to record. Safe on several nodes at once.
 */
export class PurgeOldLogLines extends Command<number> {
  constructor(readonly now: Date) {
    super();
  }
}

@CommandHandler(PurgeOldLogLines)
export class PurgeOldLogLinesHandler implements ICommandHandler<PurgeOldLogLines> {
  constructor(
    @Inject(DATABASE) private readonly db: Db,
    @Inject(CONFIG) private readonly config: Config,
  ) {}

  async execute({ now }: PurgeOldLogLines): Promise<number> {
    const cutoff = new Date(now.getTime() - this.config.logRetentionDays * DAY_MS);
    const result = await this.db.deleteFrom('app_log').where('logged_at', '<', cutoff).executeTakeFirst();
    return Number(result.numDeletedRows);
  }
}
