import { Inject, Injectable } from '@nestjs/common';
import { DATABASE, type Db } from '../../../platform/database/database.js';
import { EVENT_CORE, type EventCore } from '../../../platform/event-core/event-core.js';
import { comparePositions } from '../../../platform/event-store/event-store.js';
import { reportStream } from '../../domain/report.events.js';
import { standingStream } from '../../domain/standing.events.js';

/** One step of a user's moderation history, as the log has it: what, when, by whom, and its data (reasons included). */
export interface TrailEntry {
  at: string;
  type: string;
  actor: string;
  data: unknown;
}

/**
 * A user's moderation audit trail for admins: every ban, expiry, appeal and review on their account, and every report
 * by or about them with its evidence views and review, in the order they happened, straight from the event log. Where
 * evidence files lie on disk is left out (their SHA-256 and size stay): a name of a file is no one's to read.
 */
@Injectable()
export class ModerationTrail {
  constructor(
    @Inject(EVENT_CORE) private readonly core: EventCore,
    @Inject(DATABASE) private readonly db: Db,
  ) {}

  async of(userId: string): Promise<TrailEntry[]> {
    const reports = await this.db
      .selectFrom('moderation_reports')
      .select('report_id')
      .where((eb) => eb.or([eb('reported_id', '=', userId), eb('reporter_id', '=', userId)]))
      .execute();
    const streams = [standingStream(userId), ...reports.map((r) => reportStream(r.report_id))];
    const events = (await Promise.all(streams.map((s) => this.core.store.readStream(s)))).flat();
    // The log's own order across the streams (positions), not clocks that may tie.
    return events
      .sort((a, b) => comparePositions(a.position, b.position))
      .map((e) => ({ at: e.metadata.occurredAt, type: e.type, actor: e.metadata.actor, data: withoutFiles(e.data) }));
  }
}

/** The event's data without any `file` field, however deep (a report's screenshot, a snapshot). */
function withoutFiles(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutFiles);
  if (typeof value !== 'object' || value === null) return value;
  return Object.fromEntries(
    Object.entries(value)
      .filter(([field]) => field !== 'file')
      .map(([field, inner]) => [field, withoutFiles(inner)]),
  );
}
