import { Inject, Injectable } from '@nestjs/common';
import type { DashRemovalAppeal } from '@serendip/proto';
import { UserDirectory } from '../../../identity/public/index.js';
import { DATABASE, type Db } from '../../../platform/database/database.js';
import { removalOf } from '../posts/post-reads.js';

/** At most this many pending removal appeals in one answer, oldest first. */
export const REMOVAL_APPEALS_LISTED = 100;

/** The removals their authors appealed, waiting for a staff decision (the dashboard's Appeals page). */
@Injectable()
export class RemovalAppeals {
  constructor(
    @Inject(DATABASE) private readonly db: Db,
    private readonly users: UserDirectory,
  ) {}

  async pending(): Promise<DashRemovalAppeal[]> {
    const rows = await this.db
      .selectFrom('feed_contributions')
      .selectAll()
      .where('appeal_status', '=', 'pending')
      .orderBy('appealed_at')
      .limit(REMOVAL_APPEALS_LISTED)
      .execute();
    const names = await this.users.firstNames(rows.map((r) => r.author_id));
    return rows.map((r) => ({
      _id: r.id,
      kind: r.kind,
      postId: r.post_id,
      author: { _id: r.author_id, firstName: names.get(r.author_id) ?? null },
      text: r.text,
      writtenAt: new Date(r.created_at).toISOString(),
      // A pending appeal's row is a removed one.
      removal: removalOf(r).removed!,
      explanation: r.appeal_explanation ?? '',
      appealedAt: new Date(r.appealed_at ?? r.created_at).toISOString(),
    }));
  }
}
