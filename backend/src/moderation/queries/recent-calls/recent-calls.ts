import { Inject, Injectable } from '@nestjs/common';
import { REPORT_WINDOW_HOURS, type RecentCall } from '@serendip/proto';
import { UserDirectory } from '../../../identity/public/index.js';
import { CallRecords } from '../../../matching/public/index.js';
import { DATABASE, type Db } from '../../../platform/database/database.js';

/**
 * Recent calls (Security center): the caller's calls of the last 24 hours, each reportable, so someone who left a bad
 * call can still report it. The partner shows as in the call: first name, avatar, country; never an id.
 */
@Injectable()
export class RecentCalls {
  constructor(
    @Inject(DATABASE) private readonly db: Db,
    private readonly calls: CallRecords,
    private readonly users: UserDirectory,
  ) {}

  async of(userId: string, now: Date): Promise<RecentCall[]> {
    const since = new Date(now.getTime() - REPORT_WINDOW_HOURS * 3_600_000);
    const calls = await this.calls.recentCallsOf(userId, since);
    if (calls.length === 0) return [];
    const reported = new Set(
      (
        await this.db
          .selectFrom('moderation_reports')
          .select('match_id')
          .where('reporter_id', '=', userId)
          .where(
            'match_id',
            'in',
            calls.map((c) => c.matchId),
          )
          .execute()
      ).map((r) => r.match_id),
    );
    const partners = new Map<string, Awaited<ReturnType<UserDirectory['userInfo']>>>();
    for (const id of new Set(calls.map((c) => c.partnerId))) partners.set(id, await this.users.userInfo(id, now));
    return calls.map((call) => {
      const partner = partners.get(call.partnerId);
      return {
        matchId: call.matchId,
        // A partner who deleted the account is still reportable, but nobody's name is shown.
        partner: {
          firstName: partner?.firstName ?? 'Deleted account',
          avatar: partner?.avatar ?? null,
          country: partner?.country ?? null,
        },
        startedAt: call.pairedAt.toISOString(),
        endedAt: call.endedAt?.toISOString() ?? null,
        durationMs: call.durationMs,
        reported: reported.has(call.matchId),
      };
    });
  }
}
