import { randomUUID } from 'node:crypto';
import { Inject, Injectable, Logger, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { DATABASE, type Db } from '../../../platform/database/database.js';
import { Standings } from '../standings.js';

/** How often the expiry check runs: a timed ban's screen lifts within this long of its expiry. */
export const BAN_EXPIRY_CHECK_MS = 5_000;

/**
 * spec 4 "Ban: timed, expired": a timed ban ends on its own when its expiry passes (BanExpired), by a scheduled check on
 * the server, not a client's countdown. Every node runs it; ExpireBan is idempotent, so two nodes expiring the same
 * ban record it once.
 */
@Injectable()
export class ExpireBans implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger(ExpireBans.name);
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;

  constructor(
    @Inject(DATABASE) private readonly db: Db,
    private readonly standings: Standings,
  ) {}

  onApplicationBootstrap() {
    this.timer = setInterval(() => {
      this.running ??= this.expireDue(new Date())
        .then(() => undefined)
        .catch((error: Error) => this.logger.error(`the ban expiry check failed: ${error.message}`))
        .finally(() => (this.running = undefined));
    }, BAN_EXPIRY_CHECK_MS);
    this.timer.unref();
  }

  async onApplicationShutdown() {
    clearInterval(this.timer);
    await this.running;
  }

  /** Ends every ban whose expiry is past; answers how many it ended. */
  async expireDue(now: Date): Promise<number> {
    const due = await this.db
      .selectFrom('moderation_bans')
      .select(['case_id', 'user_id'])
      .where('ended_at', 'is', null)
      .where('expires_at', '<=', now)
      .limit(100)
      .execute();
    for (const { case_id, user_id } of due) {
      await this.standings.run(
        user_id,
        { type: 'ExpireBan', caseId: case_id },
        { commandId: randomUUID(), correlationId: randomUUID(), actor: 'system:ban-expiry', now },
      );
    }
    return due.length;
  }
}
