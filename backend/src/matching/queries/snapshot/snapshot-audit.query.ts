import { Inject } from '@nestjs/common';
import { type IQueryHandler, Query, QueryHandler } from '@nestjs/cqrs';
import { DATABASE, type Db } from '../../../platform/database/database.js';
import type { EvidenceAuditTable } from '../../../platform/database/schema.js';

export interface SnapshotAuditEntry {
  action: EvidenceAuditTable['action'];
  /** A user id, or 'system' for the server's own deletions. */
  by: string;
  /** ISO-8601 */
  at: string;
  /** The report it was taken for, the case holding or letting go, or why it was deleted. */
  detail: string | null;
}

export interface SnapshotAudit {
  snapshotId: string;
  matchId: string;
  /** Whom it shows. */
  userId: string;
  /** False once deleted: the audit outlives the picture. */
  kept: boolean;
  /** How many open cases keep it. */
  holds: number;
  entries: SnapshotAuditEntry[];
}

/** Everything done with one snapshot, oldest first, or undefined for an unknown id (admins: GET .../audit). */
export class GetSnapshotAudit extends Query<SnapshotAudit | undefined> {
  constructor(readonly snapshotId: string) {
    super();
  }
}

@QueryHandler(GetSnapshotAudit)
export class GetSnapshotAuditHandler implements IQueryHandler<GetSnapshotAudit> {
  constructor(@Inject(DATABASE) private readonly db: Db) {}

  async execute({ snapshotId }: GetSnapshotAudit): Promise<SnapshotAudit | undefined> {
    const rows = await this.db
      .selectFrom('evidence_audit')
      .select(['match_id', 'user_id', 'action', 'actor', 'at', 'detail'])
      .where('snapshot_id', '=', snapshotId)
      .orderBy('id')
      .execute();
    const first = rows[0];
    if (!first) return undefined;
    const kept = await this.db
      .selectFrom('evidence_snapshots')
      .select('holds')
      .where('snapshot_id', '=', snapshotId)
      .executeTakeFirst();
    return {
      snapshotId,
      matchId: first.match_id,
      userId: first.user_id,
      kept: kept !== undefined,
      holds: kept?.holds ?? 0,
      entries: rows.map((row) => ({
        action: row.action,
        by: row.actor,
        at: new Date(row.at).toISOString(),
        detail: row.detail,
      })),
    };
  }
}
