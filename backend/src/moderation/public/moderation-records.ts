import { Inject, Injectable } from '@nestjs/common';
import type { AppealStatusValue, ViolationLevel } from '@serendip/proto';
import { DATABASE, type Db } from '../../platform/database/database.js';

/** One ban (case) as the dashboard's user details show it. */
export interface BanRecord {
  caseId: string;
  reason: string;
  level: ViolationLevel;
  bannedBy: string;
  bannedAt: Date;
  expiresAt: Date | null;
  endedAt: Date | null;
  endedHow: 'expired' | 'unbanned' | 'appeal-approved' | null;
  appealStatus: AppealStatusValue;
  appealExplanation: string | null;
  reportId: string | null;
  /** On now: not ended, and not past its expiry. */
  current: boolean;
}

/**
 * What the dashboard's user management reads of moderation (spec 2 "Admin dashboard"): who of a page of users is
 * banned now, a person's bans with their appeals, and how many reports they filed and drew.
 */
@Injectable()
export class ModerationRecords {
  constructor(@Inject(DATABASE) private readonly db: Db) {}

  /** The ids among `userIds` under a ban now (one query for a page). */
  async bannedAmong(userIds: readonly string[], now: Date): Promise<Set<string>> {
    if (userIds.length === 0) return new Set();
    const rows = await this.db
      .selectFrom('moderation_bans')
      .select('user_id')
      .distinct()
      .where('user_id', 'in', [...userIds])
      .where('ended_at', 'is', null)
      .where((eb) => eb.or([eb('expires_at', 'is', null), eb('expires_at', '>', now)]))
      .execute();
    return new Set(rows.map((r) => r.user_id));
  }

  /** Every ban of the person, newest first. */
  async bansOf(userId: string, now: Date): Promise<BanRecord[]> {
    const rows = await this.db
      .selectFrom('moderation_bans')
      .selectAll()
      .where('user_id', '=', userId)
      .orderBy('banned_at', 'desc')
      .execute();
    return rows.map((r) => {
      const expiresAt = r.expires_at === null ? null : new Date(r.expires_at);
      return {
        caseId: r.case_id,
        reason: r.reason,
        level: r.level as ViolationLevel,
        bannedBy: r.banned_by,
        bannedAt: new Date(r.banned_at),
        expiresAt,
        endedAt: r.ended_at === null ? null : new Date(r.ended_at),
        endedHow: r.ended_how,
        appealStatus: r.appeal_status,
        appealExplanation: r.appeal_explanation,
        reportId: r.report_id,
        current: r.ended_at === null && (expiresAt === null || expiresAt > now),
      };
    });
  }

  async reportCounts(userId: string): Promise<{ filed: number; against: number }> {
    const [filed, against] = await Promise.all(
      (['reporter_id', 'reported_id'] as const).map((column) =>
        this.db
          .selectFrom('moderation_reports')
          .select((eb) => eb.fn.countAll<string>().as('n'))
          .where(column, '=', userId)
          .executeTakeFirstOrThrow(),
      ),
    );
    return { filed: Number(filed!.n), against: Number(against!.n) };
  }
}
