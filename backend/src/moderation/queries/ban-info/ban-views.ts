import { Inject, Injectable } from '@nestjs/common';
import type { BanHistoryEntry, BanInfo, BanRecordView, ViolationLevel, WarningEntry } from '@serendip/proto';
import { UserDirectory } from '../../../identity/public/index.js';
import { DATABASE, type Db } from '../../../platform/database/database.js';
import type { ModerationBansTable } from '../../../platform/database/schema.js';
import type { Selectable } from 'kysely';

type BanRow = Selectable<ModerationBansTable>;

const iso = (value: Date | string) => new Date(value).toISOString();

/**
 * The bans read model as the banned screen (spec 2, 3 "Ban record") and the ban history show it. Names come from
 * identity at read time: a deleted admin shows as 'Unknown' (bannedByWho null).
 */
@Injectable()
export class BanViews {
  constructor(
    @Inject(DATABASE) private readonly db: Db,
    private readonly users: UserDirectory,
  ) {}

  /** The ban on now, if any (one that has passed its expiry but not yet been recorded as expired counts as over). */
  async banInfo(userId: string, now: Date): Promise<BanInfo> {
    const row = await this.db
      .selectFrom('moderation_bans')
      .selectAll()
      .where('user_id', '=', userId)
      .where('ended_at', 'is', null)
      .where((eb) => eb.or([eb('expires_at', 'is', null), eb('expires_at', '>', now)]))
      .orderBy('banned_at', 'desc')
      .executeTakeFirst();
    if (!row) return { isBanned: false };
    return { isBanned: true, ban: await this.view(row, now) };
  }

  async history(userId: string, now: Date): Promise<BanHistoryEntry[]> {
    const rows = await this.db
      .selectFrom('moderation_bans')
      .selectAll()
      .where('user_id', '=', userId)
      .orderBy('banned_at', 'desc')
      .execute();
    return Promise.all(
      rows.map(async (row) => ({
        ...(await this.view(row, now)),
        ended: row.ended_at && row.ended_how ? { at: iso(row.ended_at), how: row.ended_how } : null,
        ...(row.appealed_at ? { appealedAt: iso(row.appealed_at) } : {}),
        ...(row.appeal_decided_at
          ? { appealDecision: { at: iso(row.appeal_decided_at), note: row.appeal_note ?? '' } }
          : {}),
      })),
    );
  }

  async warnings(userId: string, now: Date): Promise<WarningEntry[]> {
    const rows = await this.db
      .selectFrom('moderation_warnings')
      .selectAll()
      .where('user_id', '=', userId)
      .orderBy('warned_at', 'desc')
      .execute();
    return Promise.all(
      rows.map(async (row) => ({
        caseId: row.case_id,
        reason: row.reason,
        level: row.level as ViolationLevel,
        warnedAt: iso(row.warned_at),
        warnedByWho: await this.nameOf(row.warned_by, now),
      })),
    );
  }

  private async nameOf(userId: string, now: Date): Promise<{ firstName: string; lastName: string } | null> {
    const user = await this.users.userInfo(userId, now);
    // spec 2: the banned screen names a moderator by first name and last initial; the rest of the name stays with us.
    return user?.firstName ? { firstName: user.firstName, lastName: (user.lastName ?? '').slice(0, 1) } : null;
  }

  private async view(row: BanRow, now: Date): Promise<BanRecordView> {
    const [user, bannedByWho] = await Promise.all([
      this.users.userInfo(row.user_id, now),
      this.nameOf(row.banned_by, now),
    ]);
    return {
      caseId: row.case_id,
      bannedUser: { firstName: user?.firstName ?? null },
      reason: row.reason,
      level: row.level as ViolationLevel,
      bannedByWho,
      banDate: iso(row.banned_at),
      ...(row.expires_at ? { expiryDate: iso(row.expires_at) } : {}),
      appealStatus: row.appeal_status,
      ...(row.appeal_explanation ? { appealExplanation: row.appeal_explanation } : {}),
    };
  }
}
