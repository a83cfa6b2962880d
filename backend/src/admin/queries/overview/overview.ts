import { Inject, Injectable } from '@nestjs/common';
import type { DashboardCounters, DashboardDay, DashboardHour, DashboardOverview } from '@serendip/proto';
import { sql } from 'kysely';
import { LiveMatching, SfuLoads } from '../../../matching/public/index.js';
import { ModerationFigures } from '../../../moderation/public/index.js';
import { DATABASE, type Db } from '../../../platform/database/database.js';
import { Presence } from '../../../platform/realtime/presence.js';

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;
const HOURS = 24;
const DAYS = 14;

/**
 * The dashboard overview (spec 2 "Admin dashboard"): the live counters, from whoever knows each (who is online:
 * Presence; searching and calls: the matchmaker leader, through matching's LiveMatching; reports, appeals, bans:
 * moderation's read models), and the charts from the admin context's own read models (0019).
 */
@Injectable()
export class Overview {
  constructor(
    @Inject(DATABASE) private readonly db: Db,
    private readonly presence: Presence,
    private readonly live: LiveMatching,
    private readonly moderation: ModerationFigures,
    private readonly sfu: SfuLoads,
  ) {}

  async counters(now = new Date()): Promise<DashboardCounters> {
    const [onlineNow, moderation] = await Promise.all([this.presence.count(), this.moderation.now(now)]);
    // No leader heard lately (a handover under way): nobody is being matched, so none searching nor in a call.
    const matching = this.live.current(now.getTime()) ?? { searching: 0, inCalls: 0, relayedCalls: 0 };
    return {
      onlineNow,
      searching: matching.searching,
      inCalls: matching.inCalls,
      relayedCalls: matching.relayedCalls,
      ...moderation,
    };
  }

  async overview(now = new Date()): Promise<DashboardOverview> {
    const [counters, charts] = await Promise.all([this.counters(now), this.charts(now)]);
    return { counters, charts, sfu: this.sfu.nodes(now.getTime()), at: now.toISOString() };
  }

  /** The last 24 hours (the current one last) and the last 14 days (today last), UTC. */
  async charts(now = new Date()): Promise<DashboardOverview['charts']> {
    const thisHour = Math.floor(now.getTime() / HOUR_MS);
    const firstHour = thisHour - HOURS + 1;
    const today = Math.floor(now.getTime() / DAY_MS);
    const firstDay = today - DAYS + 1;
    const since24h = new Date(firstHour * HOUR_MS);
    const since14d = new Date(firstDay * DAY_MS);

    const [buckets, waits, lengths, moderation] = await Promise.all([
      this.db
        .selectFrom('dash_call_hours')
        .select(['hour', 'paired', 'relayed'])
        .where('hour', '>=', since14d)
        .execute(),
      this.medianByHour('paired_at', 'wait_ms', since24h),
      this.medianByHour('ended_at', 'duration_ms', since24h),
      this.db
        .selectFrom('dash_moderation_days')
        .select([sql<string>`day::text`.as('day'), 'reports', 'bans'])
        .where('day', '>=', since14d.toISOString().slice(0, 10))
        .execute(),
    ]);

    const hours: DashboardHour[] = [];
    for (let h = firstHour; h <= thisHour; h++) {
      hours.push({ hour: new Date(h * HOUR_MS).toISOString(), matches: 0, medianWaitMs: null, medianCallMs: null });
    }
    const days: DashboardDay[] = [];
    for (let d = firstDay; d <= today; d++) {
      days.push({ day: new Date(d * DAY_MS).toISOString().slice(0, 10), reports: 0, bans: 0, p2p: 0, relayed: 0 });
    }
    for (const bucket of buckets) {
      const at = new Date(bucket.hour).getTime();
      const hour = hours[Math.floor(at / HOUR_MS) - firstHour];
      if (hour) hour.matches += bucket.paired;
      const day = days[Math.floor(at / DAY_MS) - firstDay];
      if (day) {
        day.relayed += bucket.relayed;
        day.p2p += bucket.paired - bucket.relayed;
      }
    }
    for (const { h, median } of waits) {
      const hour = hours[h - firstHour];
      if (hour) hour.medianWaitMs = median;
    }
    for (const { h, median } of lengths) {
      const hour = hours[h - firstHour];
      if (hour) hour.medianCallMs = median;
    }
    for (const row of moderation) {
      const day = days.find((d) => d.day === row.day);
      if (day) Object.assign(day, { reports: row.reports, bans: row.bans });
    }
    return { hours, days };
  }

  /** The median of `value` per hour (hours since the epoch, so UTC) of `at`, since `since`. */
  private async medianByHour(at: 'paired_at' | 'ended_at', value: 'wait_ms' | 'duration_ms', since: Date) {
    const rows = await this.db
      .selectFrom('dash_calls')
      .select([
        sql<string>`floor(extract(epoch from ${sql.ref(at)}) / 3600)`.as('h'),
        sql<string>`percentile_cont(0.5) within group (order by ${sql.ref(value)})`.as('median'),
      ])
      .where(at, '>=', since)
      .where(value, 'is not', null)
      .groupBy(sql`1`)
      .execute();
    return rows.map((row) => ({ h: Number(row.h), median: Math.round(Number(row.median)) }));
  }
}
