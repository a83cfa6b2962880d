import { Inject, Injectable } from '@nestjs/common';
import { sql } from 'kysely';
import { DATABASE, type Db } from '../../platform/database/database.js';

/** What waits for staff now (spec 2 "Admin dashboard"), as moderation's read models say it. */
export interface ModerationFiguresNow {
  /** Reports filed since midnight UTC. */
  reportsToday: number;
  openReports: number;
  /** Appeals not decided yet. */
  openAppeals: number;
  /** Bans in force: not ended, and not past their end. */
  activeBans: number;
}

/** Moderation's counts for the dashboard overview and the review bell: one query over its own tables. */
@Injectable()
export class ModerationFigures {
  constructor(@Inject(DATABASE) private readonly db: Db) {}

  async now(at = new Date()): Promise<ModerationFiguresNow> {
    const midnight = new Date(at);
    midnight.setUTCHours(0, 0, 0, 0);
    const { rows } = await sql<{ [K in keyof ModerationFiguresNow]: string }>`
      select
        (select count(*) from moderation_reports where filed_at >= ${midnight}) as "reportsToday",
        (select count(*) from moderation_reports where status = 'open') as "openReports",
        (select count(*) from moderation_bans where appeal_status = 'pending') as "openAppeals",
        (select count(*) from moderation_bans
          where ended_at is null and (expires_at is null or expires_at > ${at})) as "activeBans"
    `.execute(this.db);
    const row = rows[0]!;
    return {
      reportsToday: Number(row.reportsToday),
      openReports: Number(row.openReports),
      openAppeals: Number(row.openAppeals),
      activeBans: Number(row.activeBans),
    };
  }
}
