import { Inject, Injectable } from '@nestjs/common';
import { type Expression, type ExpressionBuilder, type SqlBool, sql } from 'kysely';
import { DATABASE, type Db } from '../../platform/database/database.js';
import type { Database } from '../../platform/database/schema.js';
import { isUuid } from '../../platform/shared/ids.js';

/** Who was in a call, and how it went, as moderation checks a report against it. */
export interface CallParties {
  matchId: string;
  userIds: [string, string];
  pairedAt: Date;
  /** null while the call is on. */
  endedAt: Date | null;
  /** Its media went through the SFU (at any point): the server could film it. */
  relayed: boolean;
}

/** One call of a user's, seen from their side. */
export interface CallOfUser {
  matchId: string;
  /** The other side's user id: never shown to the user (they know their partners by per-call ids only). */
  partnerId: string;
  pairedAt: Date;
  /** null while the call is on. */
  endedAt: Date | null;
  /** null while the call is on. */
  durationMs: number | null;
}

/** At most this many calls in one answer: a day of quick skips is a long list. */
export const RECENT_CALLS_MAX = 100;

/**
 * What other contexts may read about calls (over the `matches` read model): who was in one, and a user's recent ones.
 * Ids and times only: profiles are identity's. A call takes a moment after its pairing to reach the read model.
 */
@Injectable()
export class CallRecords {
  constructor(@Inject(DATABASE) private readonly db: Db) {}

  /** The call's two users and times; undefined for an unknown call (or anything that is not a call's id). */
  async partiesOf(matchId: string): Promise<CallParties | undefined> {
    if (!isUuid(matchId)) return undefined;
    const row = await this.db
      .selectFrom('matches')
      .select(['match_id', 'user_a', 'user_b', 'paired_at', 'ended_at', 'relay_reason'])
      .where('match_id', '=', matchId)
      .executeTakeFirst();
    if (!row) return undefined;
    return {
      matchId: row.match_id,
      userIds: [row.user_a, row.user_b],
      pairedAt: new Date(row.paired_at),
      endedAt: row.ended_at === null ? null : new Date(row.ended_at),
      relayed: row.relay_reason !== null,
    };
  }

  /**
   * The user's calls paired or ended since `since`, newest first, at most `limit` (RECENT_CALLS_MAX). An unknown user
   * has none.
   */
  async recentCallsOf(userId: string, since: Date, limit = RECENT_CALLS_MAX): Promise<CallOfUser[]> {
    return this.callsOf(userId, limit, (w) => w.or([w('paired_at', '>=', since), w('ended_at', '>=', since)]));
  }

  /** The user's calls paired before `before` (any time when undefined), newest first (the activity page's). */
  async callsBefore(userId: string, before: Date | undefined, limit = RECENT_CALLS_MAX): Promise<CallOfUser[]> {
    return this.callsOf(userId, limit, (w) => (before ? w('paired_at', '<', before) : w.lit(true)));
  }

  private async callsOf(
    userId: string,
    limit: number,
    when: (w: ExpressionBuilder<Database, 'matches'>) => Expression<SqlBool>,
  ): Promise<CallOfUser[]> {
    const rows = await this.db
      .selectFrom('matches')
      .select(['match_id', 'user_a', 'user_b', 'paired_at', 'ended_at'])
      .where((w) => w.or([w('user_a', '=', userId), w('user_b', '=', userId)]))
      .where(when)
      .orderBy(sql`paired_at`, 'desc')
      .limit(Math.max(0, Math.min(limit, RECENT_CALLS_MAX)))
      .execute();
    return rows.map((row) => {
      const pairedAt = new Date(row.paired_at);
      const endedAt = row.ended_at === null ? null : new Date(row.ended_at);
      return {
        matchId: row.match_id,
        partnerId: row.user_a === userId ? row.user_b : row.user_a,
        pairedAt,
        endedAt,
        durationMs: endedAt && endedAt.getTime() - pairedAt.getTime(),
      };
    });
  }
}
